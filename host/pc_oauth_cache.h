/* pc_oauth_cache.h - the host's in-memory OAuth credential cache and the
 * provider request headers built from it (spec catalyst-code.md R8.8).
 *
 * The host resolves OAuth credentials before each model request to a
 * provider that has no api key: a cached entry is used when its
 * `expires_at` is 0 or more than 60 s ahead; otherwise the plugin's
 * `token` action runs (pc_host_run_oauth) and, when it returns a non-empty
 * `access_token`, the credentials are cached: the token, `expires_at` if a
 * positive integer else now + 300, and the `headers` pairs. A failing
 * script is not cached (it runs again next time). Successful complete,
 * an existing login and logout invalidate the entry (R8.6, R8.5, R8.10).
 *
 * Caller protocol:
 *   1. struct pc_oauth_cache c = PC_OAUTH_CACHE_INIT;
 *   2. pc_oauth_cache_resolve() before each request; on success
 *      pc_oauth_request_headers() gives what the host sends;
 *      pc_oauth_cache_invalidate() after complete / clear;
 *   3. pc_oauth_cache_release(&c).
 * Not thread-safe; nothing here prints or exits.
 */
#ifndef PC_OAUTH_CACHE_H
#define PC_OAUTH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_strvec.h"

/* Credentials of one provider. */
struct pc_oauth_creds {
	char *token;		  /* the access token, never empty */
	uint64_t expires_at;	  /* unix seconds; 0: never expires */
	struct pc_strvec headers; /* name, value, name, value, ... */
};

#define PC_OAUTH_CREDS_INIT                                               \
	{                                                                 \
		.token = NULL, .expires_at = 0, .headers = PC_STRVEC_INIT \
	}

struct pc_oauth_cache_entry {
	char *provider_id;
	struct pc_oauth_creds creds;
};

struct pc_oauth_cache {
	struct pc_oauth_cache_entry *v; /* private */
	size_t nr, alloc;		/* private */
};

#define PC_OAUTH_CACHE_INIT                    \
	{                                      \
		.v = NULL, .nr = 0, .alloc = 0 \
	}

/* The refresh margin and the default lifetime of R8.8, in seconds. */
#define PC_OAUTH_MARGIN_S  60
#define PC_OAUTH_DEFAULT_S 300

/* pc_oauth_cache_release - free every entry; `c` is empty and reusable. */
void pc_oauth_cache_release(struct pc_oauth_cache *c);
/* pc_oauth_creds_release - free the contents of `cr`. */
void pc_oauth_creds_release(struct pc_oauth_creds *cr);

/* pc_oauth_creds_from_token - R8.8's reading of a `token` response `resp`
 * (borrowed) at unix time `now` (seconds) into `out` (initialised by the
 * caller; its old contents are released). Returns 0, or PC_EINVAL when
 * `access_token` is not a non-empty string (out left empty). */
int pc_oauth_creds_from_token(const cJSON *resp, uint64_t now,
			      struct pc_oauth_creds *out);

/* pc_oauth_cache_lookup - the cached credentials of `provider_id` when
 * they are still usable at `now` (expires_at == 0 or > now + 60), else
 * NULL. Borrowed; valid until the cache is next changed. */
const struct pc_oauth_creds *
pc_oauth_cache_lookup(const struct pc_oauth_cache *c, const char *provider_id,
		      uint64_t now);

/* pc_oauth_cache_store - cache `cr` for `provider_id` (copied), taking
 * ownership of the contents of `cr` (left empty). Replaces an entry. */
void pc_oauth_cache_store(struct pc_oauth_cache *c, const char *provider_id,
			  struct pc_oauth_creds *cr);

/* pc_oauth_cache_invalidate - drop the entry of `provider_id`, if any. */
void pc_oauth_cache_invalidate(struct pc_oauth_cache *c,
			       const char *provider_id);

/* pc_oauth_cache_resolve - resolve_oauth_creds (R8.8) for plugin `p` at
 * the host's time (h->timestamp when set, else now): a usable cache entry
 * is returned without a spawn (x untouched, x->spawned false); otherwise
 * the `token` action runs through pc_host_run_oauth with exchange `x`
 * (initialised by the caller, who releases it), and a good answer is
 * cached. *out gets the credentials (borrowed from the cache) or NULL when
 * the script failed or gave no access_token (the host's stderr line is in
 * x->log). Returns 0; PC_EINVAL when `p` has no OAuth block or no token
 * script; PC_EIO for plugcheck's own failures. Blocks at most the token
 * script's timeout plus the sweep. */
int pc_oauth_cache_resolve(struct pc_oauth_cache *c, struct pc_host *h,
			   const struct pc_plugin *p, struct pc_exchange *x,
			   const struct pc_oauth_creds **out,
			   struct pc_err *err);

/* pc_oauth_request_headers - append to `out` (name, value pairs) what the
 * host sends to the provider (R8.8, oauth.rs:250-262): the static manifest
 * `headers` of `o` with the credentials' headers upserted over them
 * case-insensitively (an existing pair is replaced in place, new names are
 * appended), preceded by "Authorization", "Bearer <token>". Borrows
 * everything. */
void pc_oauth_request_headers(const struct pc_oauth_cfg *o,
			      const struct pc_oauth_creds *cr,
			      struct pc_strvec *out);

#endif
