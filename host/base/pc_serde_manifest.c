/* pc_serde_manifest.c - the shape of the host's PluginManifest.
 *
 * Transcribed from catalystctl/catcode core/src/plugins.rs (HEAD 15165db)
 * lines 433-601: field order is declaration order (it decides which
 * missing field is reported first and the struct-as-array layout), names
 * are the JSON keys after #[serde(rename)], `has_default` marks
 * #[serde(default)], and Option<T> sets `option`.
 */
#include "pc_serde.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct pc_serde_shape string = { .kind = PC_SERDE_STRING };
static const struct pc_serde_shape opt_string = {
	.kind = PC_SERDE_STRING,
	.option = true,
};
static const struct pc_serde_shape boolean = { .kind = PC_SERDE_BOOL };
static const struct pc_serde_shape opt_u64 = {
	.kind = PC_SERDE_U64,
	.option = true,
};
static const struct pc_serde_shape opt_u32 = {
	.kind = PC_SERDE_U32,
	.option = true,
};
static const struct pc_serde_shape value = { .kind = PC_SERDE_VALUE };
static const struct pc_serde_shape vec_string = {
	.kind = PC_SERDE_SEQ,
	.elem = &string,
};
static const struct pc_serde_shape opt_vec_string = {
	.kind = PC_SERDE_SEQ,
	.option = true,
	.elem = &string,
};
static const struct pc_serde_shape string_pair = {
	.kind = PC_SERDE_TUPLE_STR2,
};
static const struct pc_serde_shape vec_string_pair = {
	.kind = PC_SERDE_SEQ,
	.elem = &string_pair,
};

/* struct HookManifestEntry */
static const struct pc_serde_field hook_fields[] = {
	{ "script", &string, false },
	{ "timeout_ms", &opt_u64, true },
	{ "pass_args", &boolean, true },
};
static const struct pc_serde_shape hook = {
	.kind = PC_SERDE_STRUCT,
	.name = "HookManifestEntry",
	.fields = hook_fields,
	.nfields = N(hook_fields),
};
static const struct pc_serde_shape hook_map = {
	.kind = PC_SERDE_MAP,
	.elem = &hook,
};

/* struct ToolManifestEntry; `override` is #[serde(rename)] of
 * override_builtin. */
static const struct pc_serde_field tool_fields[] = {
	{ "name", &string, false },	{ "description", &string, true },
	{ "parameters", &value, true }, { "script", &string, false },
	{ "kind", &opt_string, true },	{ "timeout_ms", &opt_u64, true },
	{ "override", &boolean, true },
};
static const struct pc_serde_shape tool = {
	.kind = PC_SERDE_STRUCT,
	.name = "ToolManifestEntry",
	.fields = tool_fields,
	.nfields = N(tool_fields),
};
static const struct pc_serde_shape tool_vec = {
	.kind = PC_SERDE_SEQ,
	.elem = &tool,
};

/* struct CommandManifestEntry */
static const struct pc_serde_field command_fields[] = {
	{ "name", &string, false },	 { "description", &string, true },
	{ "script", &opt_string, true }, { "prompt_file", &opt_string, true },
	{ "mode", &opt_string, true },	 { "timeout_ms", &opt_u64, true },
};
static const struct pc_serde_shape command = {
	.kind = PC_SERDE_STRUCT,
	.name = "CommandManifestEntry",
	.fields = command_fields,
	.nfields = N(command_fields),
};
static const struct pc_serde_shape command_vec = {
	.kind = PC_SERDE_SEQ,
	.elem = &command,
};

/* Option<MemoryProviderManifestEntry> */
static const struct pc_serde_field memory_fields[] = {
	{ "script", &string, false },
	{ "timeout_ms", &opt_u64, true },
};
static const struct pc_serde_shape opt_memory = {
	.kind = PC_SERDE_STRUCT,
	.option = true,
	.name = "MemoryProviderManifestEntry",
	.fields = memory_fields,
	.nfields = N(memory_fields),
};

/* Option<OauthManifestEntry> */
static const struct pc_serde_field oauth_fields[] = {
	{ "provider_id", &string, false },
	{ "label", &opt_string, true },
	{ "kind", &opt_string, true },
	{ "base_url", &string, false },
	{ "description", &opt_string, true },
	{ "headers", &vec_string_pair, true },
	{ "token_path", &opt_string, true },
	{ "detect_path", &opt_string, true },
	{ "script", &opt_string, true },
	{ "login_script", &opt_string, true },
	{ "complete_script", &opt_string, true },
	{ "token_script", &opt_string, true },
	{ "login_timeout_ms", &opt_u64, true },
	{ "token_timeout_ms", &opt_u64, true },
	{ "env_passthrough", &vec_string, true },
};
static const struct pc_serde_shape opt_oauth = {
	.kind = PC_SERDE_STRUCT,
	.option = true,
	.name = "OauthManifestEntry",
	.fields = oauth_fields,
	.nfields = N(oauth_fields),
};

/* struct PluginManifest */
static const struct pc_serde_field manifest_fields[] = {
	{ "name", &string, false },
	{ "version", &string, false },
	{ "protocol_version", &opt_u32, true },
	{ "capabilities", &opt_vec_string, true },
	{ "description", &string, true },
	{ "hooks", &hook_map, true },
	{ "tools", &tool_vec, true },
	{ "disable_tools", &vec_string, true },
	{ "system_prompt", &string, true },
	{ "oauth", &opt_oauth, true },
	{ "memory_provider", &opt_memory, true },
	{ "commands", &command_vec, true },
};

const struct pc_serde_shape pc_serde_plugin_manifest = {
	.kind = PC_SERDE_STRUCT,
	.name = "PluginManifest",
	.fields = manifest_fields,
	.nfields = N(manifest_fields),
};
