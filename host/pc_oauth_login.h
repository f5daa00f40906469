/* pc_oauth_login.h - the host's whole /login and /oauth-code for a plugin
 * OAuth provider (spec catalyst-code.md R8.5, R8.6): the flows that chain
 * several pc_host_run_oauth() actions, and the loopback redirect wait of
 * the web flow.
 *
 * pc_host_oauth_login() is oauth_login (plugins.rs) plus the dispatcher's
 * wrapping of its result (dispatcher.rs login_oauth):
 *   - headless (R8.5, pc_host_oauth_headless) or not, per the emulated env;
 *   - not headless: bind 127.0.0.1:0 (+ ::1 on the same port, best
 *     effort) BEFORE login runs, and send "redirect_uri":
 *     "http://localhost:<port>/callback";
 *   - existing login => done; auto (auto_complete or flow poll/auto/
 *     device_code/device-code) => complete at once with code "", pending
 *     (and redirect_uri when not headless) => done; manual or headless =>
 *     awaiting a code, with the pending state; web (anything else) =>
 *     wait on the loopback for the redirect (state rules of
 *     pc_oauth_redirect_parse), answer every request with the host's
 *     "200 Login complete" page, then complete with the code => done.
 * plugcheck never opens a browser: the oauth_prompt event is handed to the
 * caller's callback before any complete or wait, so it can open the URL.
 *
 * Caller protocol:
 *   1. struct pc_oauth_login l; pc_oauth_login_init(&l);
 *   2. pc_host_oauth_login(h, p, &opts, &l, &err), or pc_host_oauth_code()
 *      with a pending state from an earlier login;
 *   3. read l.state / l.message / l.events / l.steps;
 *      pc_oauth_login_release(&l).
 * Nothing here prints or exits. Blocks at most: the login script's
 * deadline, plus the redirect wait cap, plus the complete script's
 * deadline (each script bounded as in pc_host_run_oauth).
 */
#ifndef PC_OAUTH_LOGIN_H
#define PC_OAUTH_LOGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "pc_err.h"
#include "pc_host.h"
#include "pc_manifest.h"
#include "pc_strvec.h"

/* The host's loopback redirect wait (oauth.rs await_redirect_dual), ms. */
#define PC_OAUTH_HOST_WAIT_MS 300000
/* plugcheck's default cap on that wait (`fire --wait-ms`), ms: long
 * enough for a person to open the URL, short enough for CI. */
#define PC_OAUTH_DEFAULT_WAIT_MS 120000
/* The request buffer of one loopback read (oauth.rs: one 4096-byte read). */
#define PC_OAUTH_REDIRECT_READ 4096

/* The body of the host's answer to every loopback request (oauth.rs). */
#define PC_OAUTH_LOGIN_COMPLETE_HTML                                        \
	"<html><body><h2>Login complete</h2><p>You can close this tab and " \
	"return to the terminal.</p></body></html>"

/* What one loopback request meant (handle_redirect_stream). */
enum pc_redirect_verdict {
	PC_REDIRECT_IGNORED = 0, /* no query, or state missing/wrong */
	PC_REDIRECT_CODE,	 /* state ok (or none expected) and a code */
	PC_REDIRECT_NO_CODE, /* state ok but no code: "no code in redirect" */
};

/* pc_oauth_redirect_parse - the host's reading of one loopback request
 * `req` (`n` raw bytes, the one read): the first line (lines(): split on
 * '\n', one trailing '\r' dropped), its second ' '-separated token, the
 * text between its first and second '?', split on '&' into key=value
 * (split at the first '='; a later duplicate key wins); `code` and `state`
 * values are percent-decoded ("%XX" with two hex digits, '+' => ' ') and
 * made valid UTF-8 as from_utf8_lossy does. With `state` (never NULL)
 * empty, or equal to the decoded state, the request yields its code, or
 * PC_REDIRECT_NO_CODE; otherwise it is ignored. *code gets a new string
 * (caller frees) only for PC_REDIRECT_CODE, else NULL. Never fails. */
enum pc_redirect_verdict pc_oauth_redirect_parse(const char *req, size_t n,
						 const char *state,
						 char **code);

/* pc_oauth_redirect_verdict_name - "ignored", "code", "no_code". */
const char *pc_oauth_redirect_verdict_name(enum pc_redirect_verdict v);

/* The host's outcome of a whole /login or /oauth-code. */
enum pc_oauth_login_state {
	PC_OAUTH_LOGIN_FAILED = 0, /* an error event; see message */
	PC_OAUTH_LOGIN_DONE,	   /* LoginOutcome::Done: logged in */
	PC_OAUTH_LOGIN_AWAITING,   /* AwaitingCode: run /oauth-code next */
};

/* The pending state the host keeps for /oauth-code (PendingOauth). */
struct pc_oauth_pending {
	char *provider_id; /* NULL: no pending login */
	char *state;	   /* the login's CSRF state (web manual), or "" */
	cJSON *pending;	   /* the login's `pending` verbatim (an explicit
			      null is a cJSON null); NULL: key absent */
};

/* One script run of the flow. */
struct pc_oauth_step {
	char *action; /* "login" or "complete" */
	struct pc_oauth_result r;
	struct pc_exchange x;
};

/* One loopback request the web flow answered. */
struct pc_oauth_redirect {
	char *request_line; /* lossy UTF-8, "" when nothing was read */
	enum pc_redirect_verdict verdict;
};

struct pc_oauth_login {
	enum pc_oauth_login_state state;
	char *flow;	    /* "existing", "auto", "manual", "headless",
			       "web"; NULL when login itself failed */
	char *message;	    /* the host's error event text, or "" */
	char *redirect_uri; /* the bound callback URI, or NULL (headless) */
	struct pc_strvec events;     /* protocol events in order, JSON lines:
					info (start), oauth_prompt, then info
					(awaiting) or error */
	struct pc_oauth_step *steps; /* login, complete: in run order */
	size_t nsteps;
	struct pc_oauth_redirect *redirects; /* web flow, in arrival order */
	size_t nredirects;
	struct pc_oauth_pending pending; /* set when AWAITING, and after a
					    failed /oauth-code (restored) */
};

/* Called once with the oauth_prompt event (a JSON line, borrowed for the
 * call) as soon as the host would emit it: before complete or the wait. */
typedef void (*pc_oauth_prompt_fn)(void *ctx, const char *event_json);

struct pc_oauth_login_opts {
	int64_t wait_ms;	      /* redirect wait cap, ms; <= 0: default
					 PC_OAUTH_DEFAULT_WAIT_MS; clamped to
					 PC_OAUTH_HOST_WAIT_MS */
	pc_oauth_prompt_fn on_prompt; /* may be NULL */
	void *prompt_ctx;
	bool no_ipv6; /* tests: skip the ::1 listener */
};

void pc_oauth_login_init(struct pc_oauth_login *l);
void pc_oauth_login_release(struct pc_oauth_login *l);
void pc_oauth_pending_release(struct pc_oauth_pending *pd);

/* pc_host_oauth_login - the whole /login of plugin `p` (R8.5, R8.6) as
 * described above, into `l` (initialised by the caller). The host's own
 * failures (a script failing, bind failure "could not bind localhost
 * OAuth callback: <e>", "no code in redirect", "timed out waiting for the
 * browser redirect", complete failing) are not errors of this call: they
 * give l->state FAILED and l->message as the dispatcher's error event
 * ("OAuth login failed: <e>"; a login script's ok:false reads "OAuth login
 * failed: OAuth login failed: <error>"). A plugin without a login script
 * gets the dispatcher's "'<id>' has no plugin OAuth login — ..." text.
 * Borrows h, p, o. Returns 0; PC_EINVAL when `p` declares no OAuth block;
 * PC_EIO for plugcheck's own failures (err set). */
int pc_host_oauth_login(struct pc_host *h, const struct pc_plugin *p,
			const struct pc_oauth_login_opts *o,
			struct pc_oauth_login *l, struct pc_err *err);

/* pc_host_oauth_code - /oauth-code `code` (dispatcher.rs oauth_code,
 * R8.6) with the stored pending state `pd` (borrowed; NULL or a NULL
 * provider_id: none). No pending => FAILED "No pending OAuth login. Run
 * /login first — ..."; a pending login of another provider => FAILED "no
 * plugin OAuth provider for '<id>' — pending login discarded"; else
 * complete runs with `code`, the pending value and no redirect_uri:
 * success => DONE; failure => FAILED with "OAuth code exchange failed:
 * <e> (pending login restored — try /oauth-code again with the correct
 * code)" and l->pending a copy of `pd`. Returns 0; PC_EINVAL when `p`
 * declares no OAuth block; PC_EIO (err set). */
int pc_host_oauth_code(struct pc_host *h, const struct pc_plugin *p,
		       const struct pc_oauth_pending *pd, const char *code,
		       struct pc_oauth_login *l, struct pc_err *err);

/* pc_oauth_pending_json - the pending state as a new JSON object
 * {"pending":<v>?,"provider_id":"...","state":"..."} (`pending` omitted
 * when absent); caller deletes. */
cJSON *pc_oauth_pending_json(const struct pc_oauth_pending *pd);
/* pc_oauth_pending_from_json - the inverse, into `pd` (released first).
 * Returns 0 or PC_EINVAL when `v` is not an object with a string
 * provider_id (a missing state reads ""). */
int pc_oauth_pending_from_json(const cJSON *v, struct pc_oauth_pending *pd,
			       struct pc_err *err);

/* pc_oauth_login_state_name - "failed", "done", "awaiting_code". */
const char *pc_oauth_login_state_name(enum pc_oauth_login_state s);

#endif
