/* fuzz_chatcli_sig.c - ChatCLI signatures (G3-G5): the `.sig` file and
 * trusted public-key files (PEM or base64) as the host reads them.
 *
 * Everything lives in one temporary directory (removed at exit): a plugin
 * file `p`, signed with a fixed Ed25519 key (so seeds can carry its
 * signature), the key's public half in `trusted/`. The first input byte
 * picks what the rest is:
 *   even: the text of `p.sig`, verified against `trusted/` (bit 1 of the
 *         byte: CHATCLI_ALLOW_UNSIGNED_PLUGINS); the decision must have a
 *         text exactly when it refuses, and the trusted key must count;
 *   odd:  the text of a `.pub` file. pc_chatcli_verify against a store
 *         holding only it, pc_chatcli_trust of it, and verify against the
 *         re-encoded copy must agree: trust accepts exactly the keys the
 *         store counts, and the copy verifies exactly when the original
 *         does. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pc_chatcli.h"
#include "pc_fs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* PKCS#8 of the Ed25519 seed "plugcheck-fuzz-fixed-key-seed-01". */
static const char key_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MC4CAQAwBQYDK2VwBCIEIHBsdWdjaGVjay1mdXp6LWZpeGVkLWtleS1zZWVkLTAx\n"
	"-----END PRIVATE KEY-----\n";
static const char pub_pem[] =
	"-----BEGIN PUBLIC KEY-----\n"
	"MCowBQYDK2VwAyEAoLaXvIPnK4y2W8is6reLvwDbYkhl1CKO/B2brOJxECA=\n"
	"-----END PUBLIC KEY-----\n";
static const char plugin[] = "#!/bin/sh\necho fuzz\n";

static char *dir, *p, *sig, *trusted, *kdir, *kpub, *tdir;
static struct pc_buf good_sig = PC_BUF_INIT(1 << 20);

static char *at(const char *name)
{
	return pc_fs_join(dir, name);
}

static void cleanup(void)
{
	pc_fs_rm_rf(dir);
	free(dir);
	free(p);
	free(sig);
	free(trusted);
	free(kdir);
	free(kpub);
	free(tdir);
	pc_buf_release(&good_sig);
}

static void setup(void)
{
	char *key, *pub;

	if (!(dir = pc_fs_mkdtemp("fuzz-sig")))
		abort();
	atexit(cleanup);
	p = at("p");
	sig = at("p.sig");
	trusted = at("trusted");
	kdir = at("k");
	kpub = at("k/x.pub");
	tdir = at("t");
	key = at("signing.key");
	pub = at("trusted/good.pub");
	if (pc_fs_write(p, plugin, sizeof(plugin) - 1, NULL) ||
	    pc_fs_write(key, key_pem, sizeof(key_pem) - 1, NULL) ||
	    pc_fs_mkdir_p(trusted, NULL) || pc_fs_mkdir_p(kdir, NULL) ||
	    pc_fs_write(pub, pub_pem, sizeof(pub_pem) - 1, NULL) ||
	    pc_chatcli_sign(p, key, NULL, NULL) ||
	    pc_fs_read_capped(sig, &good_sig, NULL))
		abort();
	free(key);
	free(pub);
}

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "%s: %s\n", what, detail ? detail : "(none)");
	abort();
}

static void fuzz_sig(const uint8_t *d, size_t n, bool allow)
{
	char *error = NULL;
	size_t nk = 0;
	int rc;

	if (pc_fs_write(sig, d, n, NULL))
		abort();
	rc = pc_chatcli_sig_verify(p, trusted, allow, &error, &nk);
	if (!rc != !error)
		die("verdict and error text disagree", error);
	if (nk != 1)
		die("the trusted key did not count", error);
	free(error);
}

static void fuzz_pub(const uint8_t *d, size_t n)
{
	struct pc_err err = PC_ERR_INIT;
	char *e1 = NULL, *e2 = NULL, *written = NULL;
	size_t n1 = 0, n2 = 0;
	int r1, r2, rt;

	if (pc_fs_write(sig, good_sig.data, good_sig.len, NULL) ||
	    pc_fs_write(kpub, d, n, NULL))
		abort();
	r1 = pc_chatcli_sig_verify(p, kdir, false, &e1, &n1);
	rt = pc_chatcli_trust(kpub, tdir, "x", &written, &err);
	if (!rt != (n1 == 1))
		die("trust and the key store disagree on the key", err.msg);
	if (!rt) {
		r2 = pc_chatcli_sig_verify(p, tdir, false, &e2, &n2);
		if (n2 != 1 || !r1 != !r2)
			die("the re-encoded key verifies differently", e2);
		unlink(written);
	}
	free(e1);
	free(e2);
	free(written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir)
		setup();
	if (!size)
		return 0;
	if (data[0] & 1)
		fuzz_pub(data + 1, size - 1);
	else
		fuzz_sig(data + 1, size - 1, data[0] & 2);
	return 0;
}
