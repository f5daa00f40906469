/* pc_rule_docs.c - the explanation table (pc_rule.h): for every rule id,
 * what the host does, a failing example and the example fixed. */
#include "pc_rule.h"

/* Sorted by id, one entry per rule of pc_rules[]. */
const struct pc_rule_doc pc_rule_docs[] = {
	{ "PC-HOOK-002",
	  "x",
	  "== plugin.json ==\n{}\n",
	  "== plugin.json ==\n{}\n" },
};
const size_t pc_nrule_docs = sizeof(pc_rule_docs) / sizeof(pc_rule_docs[0]);
