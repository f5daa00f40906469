/* fuzz_serde.c - the serde_json layer: parse, print, parse again.
 *
 * Anything pc_serde_parse() accepts must print (compact and pretty), and
 * the printed text must parse again and print to the same document: the
 * same structure, keys, strings and integers byte for byte. Floats may
 * move by at most one ulp: serde_json 1.0.150 without `float_roundtrip`
 * (and pc_serde, which repeats it, docs/serde-fidelity.md) parses with
 * `significand as f64` times a power of ten, which is not correctly
 * rounded, so the shortest digits of f can parse back to a neighbour of
 * f. That is the host's behaviour, not a bug; anything more is. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc_serde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ulps - distance of two finite doubles in units in the last place. */
static uint64_t ulps(double x, double y)
{
	int64_t a, b;

	if (x == y)
		return 0;
	memcpy(&a, &x, sizeof(a));
	memcpy(&b, &y, sizeof(b));
	/* map the sign-magnitude bit patterns onto a monotonic integer line */
	if (a < 0)
		a = INT64_MIN - a;
	if (b < 0)
		b = INT64_MIN - b;
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static size_t number_len(const char *s)
{
	return strspn(s, "-+0123456789.eE");
}

/* same_doc - a and b are compact serde texts of the same value: equal
 * byte for byte except float tokens, which may differ by one ulp. */
static bool same_doc(const char *a, const char *b)
{
	bool in_str = false;

	while (*a && *b) {
		if (in_str) {
			if (*a != *b)
				return false;
			if (*a == '\\' && a[1] == b[1] && a[1]) {
				a += 2, b += 2;
				continue;
			}
			in_str = *a != '"';
			a++, b++;
		} else if (*a == '-' || (*a >= '0' && *a <= '9')) {
			size_t na = number_len(a), nb = number_len(b);
			bool fa = strcspn(a, ".eE") < na;
			bool fb = strcspn(b, ".eE") < nb;

			if (fa != fb || (!fa && (na != nb || memcmp(a, b, na))))
				return false;
			if (fa && ulps(strtod(a, NULL), strtod(b, NULL)) > 1)
				return false;
			a += na, b += nb;
		} else {
			if (*a != *b)
				return false;
			in_str = *a == '"';
			a++, b++;
		}
	}
	return !*a && !*b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_err err = PC_ERR_INIT;
	struct pc_buf pretty = PC_BUF_INIT(PC_BUF_NOCAP);
	cJSON *v = NULL, *w = NULL;
	char *a, *b;

	if (pc_serde_parse((const char *)data, size, &v, &err))
		return 0;
	a = pc_serde_to_string(v);
	if (pc_serde_parse(a, strlen(a), &w, &err)) {
		fprintf(stderr, "printed text does not parse: %s\n%s\n",
			err.msg, a);
		abort();
	}
	b = pc_serde_to_string(w);
	if (!same_doc(a, b)) {
		fprintf(stderr, "round trip changed the document:\n%s\n%s\n", a,
			b);
		abort();
	}
	pc_serde_print_pretty(v, &pretty);
	pc_buf_release(&pretty);
	free(a);
	free(b);
	cJSON_Delete(v);
	cJSON_Delete(w);
	return 0;
}
