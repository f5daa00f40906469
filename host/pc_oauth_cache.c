/* pc_oauth_cache.c - resolve_oauth_creds and enrich_oauth (spec R8.8). */
#include "pc_oauth_cache.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_host_impl.h"
#include "pc_serde.h"
#include "pc_xalloc.h"

void pc_oauth_creds_release(struct pc_oauth_creds *cr)
{
	free(cr->token);
	cr->token = NULL;
	cr->expires_at = 0;
	pc_strvec_release(&cr->headers);
}

void pc_oauth_cache_release(struct pc_oauth_cache *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].provider_id);
		pc_oauth_creds_release(&c->v[i].creds);
	}
	free(c->v);
	c->v = NULL;
	c->nr = c->alloc = 0;
}

/* positive_u64 - serde's `as_u64()` > 0: an integer number without sign,
 * fraction or exponent (pc_serde keeps the exact text in valuestring). */
static bool positive_u64(const cJSON *v, uint64_t *out)
{
	const char *t;
	char *end;
	unsigned long long n;

	if (!cJSON_IsNumber(v))
		return false;
	t = v->valuestring;
	if (!t) {
		if (v->valuedouble < 1 || v->valuedouble > 9007199254740992.0 ||
		    v->valuedouble != (double)(uint64_t)v->valuedouble)
			return false;
		*out = (uint64_t)v->valuedouble;
		return true;
	}
	if (strspn(t, "0123456789") != strlen(t) || !*t)
		return false;
	n = strtoull(t, &end, 10);
	if (n == 0)
		return false;
	*out = n;
	return true;
}

int pc_oauth_creds_from_token(const cJSON *resp, uint64_t now,
			      struct pc_oauth_creds *out)
{
	const cJSON *tok = pc_serde_get(resp, "access_token");
	const cJSON *hs = pc_serde_get(resp, "headers"), *h;
	uint64_t exp;

	pc_oauth_creds_release(out);
	if (!cJSON_IsString(tok) || !*tok->valuestring)
		return PC_EINVAL;
	out->token = pc_xstrdup(tok->valuestring);
	out->expires_at = positive_u64(pc_serde_get(resp, "expires_at"), &exp)
				  ? exp
				  : now + PC_OAUTH_DEFAULT_S;
	if (!cJSON_IsArray(hs))
		return 0;
	cJSON_ArrayForEach(h, hs)
	{
		const cJSON *k = cJSON_GetArrayItem(h, 0);
		const cJSON *v = cJSON_GetArrayItem(h, 1);

		if (!cJSON_IsArray(h) || !cJSON_IsString(k) ||
		    !cJSON_IsString(v) || !*k->valuestring || !*v->valuestring)
			continue;
		pc_strvec_push(&out->headers, k->valuestring);
		pc_strvec_push(&out->headers, v->valuestring);
	}
	return 0;
}

static struct pc_oauth_cache_entry *find(const struct pc_oauth_cache *c,
					 const char *provider_id)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].provider_id, provider_id))
			return &c->v[i];
	return NULL;
}

const struct pc_oauth_creds *
pc_oauth_cache_lookup(const struct pc_oauth_cache *c, const char *provider_id,
		      uint64_t now)
{
	const struct pc_oauth_cache_entry *e = find(c, provider_id);

	if (!e)
		return NULL;
	if (e->creds.expires_at == 0 ||
	    e->creds.expires_at > now + PC_OAUTH_MARGIN_S)
		return &e->creds;
	return NULL;
}

void pc_oauth_cache_store(struct pc_oauth_cache *c, const char *provider_id,
			  struct pc_oauth_creds *cr)
{
	struct pc_oauth_cache_entry *e = find(c, provider_id);

	if (!e) {
		if (c->nr == c->alloc) {
			c->alloc = c->alloc ? 2 * c->alloc : 4;
			c->v = pc_xreallocarray(c->v, c->alloc, sizeof(*c->v));
		}
		e = &c->v[c->nr++];
		e->provider_id = pc_xstrdup(provider_id);
	} else {
		pc_oauth_creds_release(&e->creds);
	}
	e->creds = *cr;
	pc_strvec_init(&cr->headers);
	cr->token = NULL;
	cr->expires_at = 0;
}

void pc_oauth_cache_invalidate(struct pc_oauth_cache *c,
			       const char *provider_id)
{
	struct pc_oauth_cache_entry *e = find(c, provider_id);

	if (!e)
		return;
	free(e->provider_id);
	pc_oauth_creds_release(&e->creds);
	*e = c->v[--c->nr];
}

int pc_oauth_cache_resolve(struct pc_oauth_cache *c, struct pc_host *h,
			   const struct pc_plugin *p, struct pc_exchange *x,
			   const struct pc_oauth_creds **out,
			   struct pc_err *err)
{
	struct pc_oauth_result r;
	struct pc_oauth_creds cr = PC_OAUTH_CREDS_INIT;
	uint64_t now = pc__host_now(h);
	int rc;

	*out = NULL;
	if (!p->oauth)
		return pc_err_set(err, PC_EINVAL,
				  "plugin '%s' declares no oauth provider",
				  p->name);
	*out = pc_oauth_cache_lookup(c, p->oauth->provider_id, now);
	if (*out)
		return 0;
	rc = pc_host_run_oauth(h, p, "token", NULL, &r, x, err);
	if (rc < 0)
		return rc;
	if (r.ok && pc_oauth_creds_from_token(r.response, now, &cr) == 0) {
		pc_oauth_cache_store(c, p->oauth->provider_id, &cr);
		*out = pc_oauth_cache_lookup(c, p->oauth->provider_id, now);
		/* An expires_at within the margin is used once, not cached
		 * as usable: return it anyway, as the host does. */
		if (!*out)
			*out = &find(c, p->oauth->provider_id)->creds;
	}
	pc_oauth_result_release(&r);
	return 0;
}

static void upsert(struct pc_strvec *out, size_t from, const char *k,
		   const char *v)
{
	for (size_t i = from; i + 1 < out->nr; i += 2) {
		if (strcasecmp(out->v[i], k))
			continue;
		/* upsert_header replaces the value only: the name keeps the
		 * spelling of the header it found */
		free(out->v[i + 1]);
		out->v[i + 1] = pc_xstrdup(v);
		return;
	}
	pc_strvec_push(out, k);
	pc_strvec_push(out, v);
}

void pc_oauth_request_headers(const struct pc_oauth_cfg *o,
			      const struct pc_oauth_creds *cr,
			      struct pc_strvec *out)
{
	size_t from;
	const cJSON *h;

	pc_strvec_push(out, "Authorization");
	pc_strvec_pushf(out, "Bearer %s", cr->token);
	from = out->nr;
	cJSON_ArrayForEach(h, o->headers)
	{
		const cJSON *k = cJSON_GetArrayItem(h, 0);
		const cJSON *v = cJSON_GetArrayItem(h, 1);

		if (cJSON_IsString(k) && cJSON_IsString(v)) {
			pc_strvec_push(out, k->valuestring);
			pc_strvec_push(out, v->valuestring);
		}
	}
	for (size_t i = 0; i + 1 < cr->headers.nr; i += 2)
		upsert(out, from, cr->headers.v[i], cr->headers.v[i + 1]);
}
