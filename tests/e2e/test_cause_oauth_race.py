"""Issue 17, the OAuth token race (spec catalyst-code.md R8.8, R8.11): the
host runs `token` for every caller whose cached token is stale and nothing
serialises them. `check` logs the plugin in against plugcheck's mock
authorization server (single-use refresh tokens), fires token alone, twice
at once, then once more, and names the cause (PC-OAUTH-010) with the fix;
`lint` points at the in-place write (PC-OAUTH-011). The same plugin with a
lock and an atomic rename passes; a plugin plugcheck cannot point at its
server is not tried; and firing token through the reference host is what
it was."""
import json
import os
import shutil

from e2e import eq

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "causes",
                   "oauth-token-race")
NO_TOKEN = ("[plugins] oauth token script for 'raceprov' returned no access_token "
            "(re-login may be required)")
RACE = ("2 token actions at once (the host runs one for each caller whose cached token is "
        "stale, and nothing serialises them) doubled a rotation: both read the same single-use "
        "refresh token, mock-refresh-2 was spent by one and presented again by another, so the "
        "authorization server refused it and revoked the login (reuse detection); 1 of 2 "
        "failed: " + NO_TOKEN + "; the login is lost: the next token action failed too ("
        + NO_TOKEN + "), the user has to log in again")


def findings(d, id):
    return [(f["file"], f["message"]) for f in d["findings"] if f["id"] == id]


def race_case(d):
    return [c for c in d["cases"] if c["name"] == "token at once (refresh-token rotation)"]


def fixed(ctx):
    d = os.path.join(ctx.tmp, "oauth-token-race")
    shutil.copytree(FIX, d)
    p = os.path.join(d, "oauth", "oauth.py")
    s = open(p).read()
    s = s.replace('''    with open(path, "w") as f:
        json.dump({"access_token": d["access_token"],
                   "refresh_token": d["refresh_token"],
                   "expires_at": int(time.time()) + d["expires_in"]}, f)
''', '''    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"access_token": d["access_token"],
                   "refresh_token": d["refresh_token"],
                   "expires_at": int(time.time()) + d["expires_in"]}, f)
    os.replace(tmp, path)
''').replace('''elif action == "token":
    try:''', '''elif action == "token":
    import fcntl
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lock = open(path + ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:''')
    open(p, "w").write(s)
    return d


def test_check_names_the_race(ctx):
    code, d = ctx.json("check", FIX)
    eq(code, 1)
    eq(findings(d, "PC-OAUTH-010"), [("oauth/oauth.py", RACE)])
    c = race_case(d)
    eq(len(c), 1)
    eq(c[0]["status"], "fail")
    out = c[0]["system_out"]
    eq('"refresh_token":"mock-refresh-2","result":"reused"' in out, True, out)
    eq(out.count("token at once ("), 2)


def test_lint_points_at_the_write(ctx):
    code, d = ctx.json("lint", FIX)
    eq(code, 0)
    eq(findings(d, "PC-OAUTH-011"),
       [("oauth/oauth.py",
         "the token script rotates refresh tokens and rewrites its token file in place (line "
         "39) with neither a lock nor a rename: two token actions at once - the host runs one "
         "for every caller that finds its token stale - read the same single-use refresh "
         "token, and one of them can read a half-written file")])
    eq(findings(d, "PC-OAUTH-010"), [])


def test_a_locked_atomic_token_passes(ctx):
    code, d = ctx.json("check", fixed(ctx))
    eq(findings(d, "PC-OAUTH-010") + findings(d, "PC-OAUTH-011"), [])
    c = race_case(d)
    eq([x["status"] for x in c], ["pass"])
    # every rotation spent a fresh token: alone, the two at once (one
    # after the other, behind the lock), the one after them
    eq(c[0]["system_out"].count('"result":"rotated"'), 4, c[0]["system_out"])


def test_not_tried_without_an_address_to_point(ctx):
    d = fixed(ctx)
    m = json.load(open(os.path.join(d, "plugin.json")))
    m["oauth"]["env_passthrough"] = ["RACE_MODE"]
    with open(os.path.join(d, "plugin.json"), "w") as f:
        json.dump(m, f)
    code, out = ctx.json("check", d)
    eq(race_case(out), [])


def test_the_host_still_fires_token_as_before(ctx):
    # without a login the token action answers as it always did
    code, d = ctx.json("fire", "oauth:token", FIX, env={"HOME": ctx.tmp})
    eq(code, 1)
    eq(d["ok"], False)
    eq(d["message"], NO_TOKEN)
    eq(d["response"]["ok"], False)
