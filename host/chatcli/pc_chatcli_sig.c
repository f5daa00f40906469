/* pc_chatcli_sig.c - plugin signatures as the host verifies them (G1-G6)
 * and the newer upstream tooling's formats (§6.B). All cryptography is
 * libsodium's; this file only handles encodings and files. */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pc_buf.h"
#include "pc_chatcli.h"
#include "pc_chatcli_impl.h"
#include "pc_fs.h"
#include "pc_xalloc.h"

#define FILE_MAX ((size_t)1 << 30)
/* §6.B: the first comment line SignPlugin writes. */
#define SIG_COMMENT "# chatcli plugin signature (Ed25519 over SHA-256)"

/* DER prefixes of an Ed25519 PKCS#8 private key and PKIX public key. */
static const unsigned char pkcs8_prefix[] = { 0x30, 0x2e, 0x02, 0x01,
					      0x00, 0x30, 0x05, 0x06,
					      0x03, 0x2b, 0x65, 0x70,
					      0x04, 0x22, 0x04, 0x20 };
static const unsigned char pkix_prefix[] = {
	0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00
};

static int b64_val(int c)
{
	const char *a =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(a, c) : NULL;

	return p ? (int)(p - a) : -1;
}

static void ensure_sodium(void)
{
	if (sodium_init() < 0)
		abort(); /* no entropy source: nothing sensible to do */
}

static int digest_file(const char *path, unsigned char d[32], int *errnum)
{
	struct pc_buf b = PC_BUF_INIT(FILE_MAX);
	struct pc_err e = PC_ERR_INIT;
	int rc = pc_fs_read_stream(path, &b, PC_FS_STREAM_MS, &e);

	if (!rc)
		crypto_hash_sha256(
			d, (const unsigned char *)(b.data ? b.data : ""),
			b.len);
	*errnum = rc == PC_ENOENT ? ENOENT : e.sys_errno ? e.sys_errno : EIO;
	pc_buf_release(&b);
	return rc;
}

/* go_b64 - base64.StdEncoding.DecodeString of s[0..n): padding required,
 * \r and \n skipped anywhere; on error *bad gets Go's CorruptInputError
 * offset (an input that ends inside a quantum is reported at the
 * quantum's first character, counted without the skipped newlines, as Go
 * does: si - j). */
static bool go_b64(const char *s, size_t n, struct pc_buf *out, size_t *bad)
{
	size_t si = 0;

	for (;;) {
		unsigned acc = 0;
		int j = 0, pad = 0;

		while (j < 4) {
			int c, v;

			if (si == n) {
				if (j == 0)
					return true;
				*bad = si - (size_t)j;
				return false;
			}
			c = (unsigned char)s[si++];
			if ((v = b64_val(c)) >= 0) {
				acc = acc << 6 | (unsigned)v;
				j++;
				continue;
			}
			if (c == '\n' || c == '\r')
				continue;
			if (c != '=' || j < 2) {
				*bad = si - 1;
				return false;
			}
			if (j == 2) { /* "==" expected */
				while (si < n && (s[si] == '\n' || s[si] == '\r'))
					si++;
				if (si == n) {
					*bad = n;
					return false;
				}
				if (s[si] != '=') {
					*bad = si - 1;
					return false;
				}
				si++;
			}
			while (si < n && (s[si] == '\n' || s[si] == '\r'))
				si++;
			if (si < n) { /* trailing garbage */
				*bad = si;
				return false;
			}
			pad = 4 - j;
			break;
		}
		acc <<= 6 * pad;
		for (int k = 0; k < 3 - pad; k++)
			pc_buf_addch(out, (char)(acc >> (16 - 8 * k)));
		if (pad)
			return true;
	}
}

struct view {
	const char *p;
	size_t n;
};

static struct view vw(const char *p, size_t n)
{
	return (struct view){ p, n };
}

static bool starts(struct view s, const char *pre)
{
	size_t k = strlen(pre);

	return s.n >= k && !memcmp(s.p, pre, k);
}

/* get_line - pem's getLine: the line (a \r before \n dropped, trailing
 * spaces and tabs trimmed) and the rest after the \n. */
static struct view get_line(struct view d, struct view *rest)
{
	const char *nl = d.n ? memchr(d.p, '\n', d.n) : NULL;
	size_t i = nl ? (size_t)(nl - d.p) : d.n, j = nl ? i + 1 : i;

	if (nl && i > 0 && d.p[i - 1] == '\r')
		i--;
	while (i && (d.p[i - 1] == ' ' || d.p[i - 1] == '\t'))
		i--;
	*rest = vw(d.p + j, d.n - j);
	return vw(d.p, i);
}

/* pem_decode - Go's pem.Decode of the first valid block of d: its type
 * (a view into d) and its body decoded into der; false when there is
 * none. "-----BEGIN " must start the text or a line, header lines
 * (`Key: value`) may follow with or without a blank line, and the END
 * line must name the same type. */
static bool pem_decode(struct view d, struct view *type, struct pc_buf *der)
{
	static const char start[] = "\n-----BEGIN ", end[] = "\n-----END ";
	struct view rest = d;

	for (;;) {
		struct view t, body;
		long at;
		size_t end_i, trailer_i, need;
		bool headers = false;

		if (starts(rest, start + 1)) {
			rest = vw(rest.p + 11, rest.n - 11);
		} else if ((at = pc__chatcli_index(rest.p, rest.n, start, 12)) >=
			   0) {
			rest = vw(rest.p + at + 12, rest.n - (size_t)at - 12);
		} else {
			return false;
		}
		t = get_line(rest, &rest);
		if (t.n < 5 || memcmp(t.p + t.n - 5, "-----", 5))
			continue;
		t.n -= 5;
		for (;;) {
			struct view next, line;

			if (!rest.n)
				return false;
			line = get_line(rest, &next);
			if (!line.n || !memchr(line.p, ':', line.n))
				break;
			headers = true;
			rest = next;
		}
		if (!headers && starts(rest, end + 1)) {
			end_i = 0;
			trailer_i = 9;
		} else if ((at = pc__chatcli_index(rest.p, rest.n, end, 10)) >= 0) {
			end_i = (size_t)at;
			trailer_i = end_i + 10;
		} else {
			continue;
		}
		need = t.n + 5;
		if (rest.n - trailer_i < need ||
		    memcmp(rest.p + trailer_i, t.p, t.n) ||
		    memcmp(rest.p + trailer_i + t.n, "-----", 5))
			continue;
		{
			struct view after, tail =
						   vw(rest.p + trailer_i + need,
						      rest.n - trailer_i - need);

			if (get_line(tail, &after).n)
				continue; /* the END line must end there */
		}
		body = vw(rest.p, end_i);
		pc_buf_reset(der);
		{
			struct pc_buf clean = PC_BUF_INIT(FILE_MAX);
			size_t bad;
			bool ok;

			for (size_t i = 0; i < body.n; i++)
				if (body.p[i] != ' ' && body.p[i] != '\t')
					pc_buf_addch(&clean, body.p[i]);
			ok = go_b64(clean.data ? clean.data : "", clean.len, der,
				    &bad);
			pc_buf_release(&clean);
			if (!ok)
				continue;
		}
		*type = t;
		return true;
	}
}

static bool view_is(struct view v, const char *s)
{
	return v.n == strlen(s) && !memcmp(v.p, s, v.n);
}

/* parse_pub - G4 (loadEd25519PublicKey): a 32-byte key from a .pub
 * file's bytes text[0..n), or false (the host skips the file). */
static bool parse_pub(const char *text, size_t n, unsigned char pk[32])
{
	struct pc_buf der = PC_BUF_INIT(FILE_MAX);
	struct view type, t = vw(text, n);
	bool ok = false;
	size_t bad;

	if (pem_decode(t, &type, &der)) {
		ok = (view_is(type, "PUBLIC KEY") ||
		      view_is(type, "ED25519 PUBLIC KEY")) &&
		     der.len >= 32;
		if (ok)
			memcpy(pk, der.data + der.len - 32, 32);
	} else {
		pc__chatcli_trim_space(&t.p, &t.n);
		pc_buf_reset(&der);
		ok = go_b64(t.p, t.n, &der, &bad) && der.len == 32;
		if (ok)
			memcpy(pk, der.data, 32);
	}
	pc_buf_release(&der);
	return ok;
}

/* load_keys - every usable DIR/ *.pub (G4); returns how many, keys in *v
 * (32 bytes each, caller frees). A key file the host's os.ReadFile would
 * block on (a FIFO) is read under plugcheck's deadline; *blocked (when
 * not NULL; new string) then gets the message naming the first one. */
static size_t load_keys(const char *dir, unsigned char **v, char **blocked)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;
	size_t n = 0;

	*v = NULL;
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *path;
		struct pc_buf b = PC_BUF_INIT(FILE_MAX);
		struct pc_err e = PC_ERR_INIT;
		int rc = -1;

		if (len < 4 || strcmp(de->d_name + len - 4, ".pub"))
			continue;
		path = pc_fs_join(dir, de->d_name);
		*v = pc_xreallocarray(*v, n + 1, 32);
		/* os.ReadDir lists dot files too: a hidden .dev.pub counts */
		if (!pc_fs_is_dir(path))
			rc = pc_fs_read_stream(path, &b, PC_FS_STREAM_MS, &e);
		if (rc == PC_ETIMEDOUT && blocked && !*blocked)
			*blocked = pc_xasprintf(
				"trusted key %s: the host never gets past loading its trusted keys",
				e.msg);
		if (!rc && parse_pub(b.data ? b.data : "", b.len, *v + 32 * n))
			n++;
		pc_buf_release(&b);
		free(path);
	}
	if (d)
		closedir(d);
	return n;
}

bool pc_chatcli_unsigned_allowed(const char *value)
{
	return value && !strcasecmp(value, "true");
}

static int refuse(char **error, char *msg)
{
	*error = msg;
	return PC_EINVAL;
}

/* read_sig - G3: 64 signature bytes from the .sig bytes text[0..n), or
 * the host's error: the whole text strings.TrimSpace'd, its first line
 * (to the first \n) trimmed again and decoded; a NUL is an ordinary byte
 * (an illegal one at its offset). */
static int read_sig(const char *text, size_t n, unsigned char sig[64],
		    char **error)
{
	struct view t = vw(text, n);
	struct pc_buf b = PC_BUF_INIT(FILE_MAX);
	const char *nl;
	size_t bad;
	int rc = 0;

	pc__chatcli_trim_space(&t.p, &t.n);
	if (t.n && (nl = memchr(t.p, '\n', t.n)) != NULL)
		t.n = (size_t)(nl - t.p);
	pc__chatcli_trim_space(&t.p, &t.n);
	if (!go_b64(t.p, t.n, &b, &bad))
		rc = refuse(
			error,
			pc_xasprintf(
				"invalid signature encoding: illegal base64 data at input byte %zu",
				bad));
	else if (b.len != 64)
		rc = refuse(
			error,
			pc_xasprintf(
				"invalid signature size: expected 64, got %zu",
				b.len));
	else
		memcpy(sig, b.data, 64);
	pc_buf_release(&b);
	return rc;
}

static char *go_os_error(const char *op, const char *path, int errnum)
{
	char *e = pc_xasprintf("%s %s: %s", op, path, strerror(errnum));
	char *c = strstr(e, ": ") + 2;

	*c = (char)tolower((unsigned char)*c);
	return e;
}

int pc_chatcli_sig_verify(const char *path, const char *keys_dir,
			  bool allow_unsigned, char **error, size_t *nkeys)
{
	char *sig_path = pc_xasprintf("%s.sig", path);
	struct pc_buf b = PC_BUF_INIT(FILE_MAX);
	struct pc_err e = PC_ERR_INIT;
	unsigned char sig[64], d[32], *keys = NULL;
	char *blocked = NULL;
	size_t nk = 0;
	int rc, errnum;

	ensure_sodium();
	*error = NULL;
	nk = load_keys(keys_dir, &keys, &blocked); /* the host reads them first */
	free(keys);
	keys = NULL;
	if (blocked) {
		rc = refuse(error, blocked);
		goto out;
	}
	rc = pc_fs_read_stream(sig_path, &b, PC_FS_STREAM_MS, &e);
	if (rc == PC_ETIMEDOUT) {
		/* os.ReadFile of a FIFO: the host blocks until a writer
		 * closes it, without a deadline */
		rc = refuse(error,
			    pc_xasprintf("failed to read signature file: %s (the host never gets past loading this plugin)",
					 e.msg));
		goto out;
	}
	if (rc == PC_ENOENT) {
		rc = allow_unsigned
			     ? 0
			     : refuse(error,
				      pc_xstrdup(
					      "plugin signature file not found"));
		goto out;
	}
	if (rc) {
		char *oe =
			go_os_error(e.sys_errno == EISDIR ? "read" : "open",
				    sig_path, e.sys_errno ? e.sys_errno : EIO);

		rc = refuse(
			error,
			pc_xasprintf("failed to read signature file: %s", oe));
		free(oe);
		goto out;
	}
	if ((rc = read_sig(b.data ? b.data : "", b.len, sig, error)))
		goto out;
	if (digest_file(path, d, &errnum)) {
		char *oe = go_os_error(errnum == EISDIR ? "read" : "open", path,
				       errnum);

		rc = refuse(
			error,
			pc_xasprintf("failed to read plugin binary: %s", oe));
		free(oe);
		goto out;
	}
	nk = load_keys(keys_dir, &keys, NULL);
	if (!nk) {
		rc = allow_unsigned
			     ? 0
			     : refuse(error,
				      pc_xstrdup(
					      "no trusted public keys found"));
		goto out;
	}
	rc = refuse(error, pc_xstrdup("plugin signature verification failed"));
	for (size_t i = 0; i < nk; i++)
		if (!crypto_sign_verify_detached(sig, d, 32, keys + 32 * i)) {
			free(*error);
			*error = NULL;
			rc = 0;
			break;
		}
out:
	free(keys);
	keys = NULL;
	if (nkeys && !nk && !blocked) /* the early exits did not load them */
		nk = load_keys(keys_dir, &keys, NULL);
	if (nkeys)
		*nkeys = nk;
	free(keys);
	pc_buf_release(&b);
	free(sig_path);
	return rc;
}

/* --- §6.B tooling ------------------------------------------------------- */

static char *pem_encode(const char *type, const unsigned char *der, size_t n)
{
	size_t cap =
		sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL);
	char *b64 = pc_xmalloc(cap);
	struct pc_buf b = PC_BUF_INIT(PC_BUF_NOCAP);
	size_t len;

	sodium_bin2base64(b64, cap, der, n, sodium_base64_VARIANT_ORIGINAL);
	len = strlen(b64);
	pc_buf_addf(&b, "-----BEGIN %s-----\n", type);
	for (size_t i = 0; i < len; i += 64)
		pc_buf_addf(&b, "%.*s\n", (int)(len - i < 64 ? len - i : 64),
			    b64 + i);
	pc_buf_addf(&b, "-----END %s-----\n", type);
	free(b64);
	return pc_buf_detach(&b, NULL);
}

static int write_mode(const char *path, const char *text, mode_t mode,
		      struct pc_err *err)
{
	int rc = pc_fs_write(path, text, strlen(text), err);

	if (!rc && chmod(path, mode) < 0)
		rc = pc_err_set_errno(err, PC_EIO, errno, "cannot chmod '%s'",
				      path);
	return rc;
}

static int mkdir_0700(const char *dir, struct pc_err *err)
{
	int rc = pc_fs_mkdir_p(dir, err);

	if (!rc && chmod(dir, 0700) < 0)
		rc = pc_err_set_errno(err, PC_EIO, errno, "cannot chmod '%s'",
				      dir);
	return rc;
}

int pc_chatcli_keygen(const char *dir, struct pc_err *err)
{
	char *kp = pc_fs_join(dir, "plugin-signing.key");
	char *pp = pc_fs_join(dir, "plugin-signing.pub");
	unsigned char pk[32], sk[64], der[48];
	char *pem;
	int rc;

	ensure_sodium();
	if (pc_fs_is_file(kp) || pc_fs_is_file(pp)) {
		rc = pc_err_set(err, PC_EINVAL,
				"a signing key already exists at %s", kp);
		goto out;
	}
	if ((rc = mkdir_0700(dir, err)))
		goto out;
	crypto_sign_keypair(pk, sk);
	memcpy(der, pkcs8_prefix, sizeof(pkcs8_prefix));
	crypto_sign_ed25519_sk_to_seed(der + sizeof(pkcs8_prefix), sk);
	pem = pem_encode("PRIVATE KEY", der, sizeof(pkcs8_prefix) + 32);
	rc = write_mode(kp, pem, 0600, err);
	free(pem);
	sodium_memzero(der, sizeof(der));
	sodium_memzero(sk, sizeof(sk));
	if (rc)
		goto out;
	memcpy(der, pkix_prefix, sizeof(pkix_prefix));
	memcpy(der + sizeof(pkix_prefix), pk, 32);
	pem = pem_encode("PUBLIC KEY", der, sizeof(pkix_prefix) + 32);
	rc = write_mode(pp, pem, 0644, err);
	free(pem);
out:
	free(kp);
	free(pp);
	return rc;
}

/* read_seed - the 32-byte seed of a PKCS#8 Ed25519 PEM private key. */
static int read_seed(const char *key_path, unsigned char seed[32],
		     struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20), der = PC_BUF_INIT(1 << 20);
	struct view type;
	int rc = pc_fs_read_stream(key_path, &b, PC_FS_STREAM_MS, err);

	if (!rc && (!pem_decode(vw(b.data ? b.data : "", b.len), &type, &der) ||
		    !view_is(type, "PRIVATE KEY") ||
		    der.len != sizeof(pkcs8_prefix) + 32 ||
		    memcmp(der.data, pkcs8_prefix, sizeof(pkcs8_prefix))))
		rc = pc_err_set(err, PC_EINVAL,
				"'%s' is not a PKCS#8 Ed25519 private key",
				key_path);
	if (!rc)
		memcpy(seed, der.data + sizeof(pkcs8_prefix), 32);
	if (der.data)
		sodium_memzero(der.data, der.len);
	pc_buf_release(&der);
	pc_buf_release(&b);
	return rc;
}

static int sign(const char *path, const char *key_path, const char *sig_path,
		bool comments, struct pc_err *err)
{
	unsigned char seed[32], pk[32], sk[64], d[32], sig[64];
	char b64[128], hex[65], *out, *def = NULL;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	int rc, errnum;

	ensure_sodium();
	if ((rc = read_seed(key_path, seed, err)))
		return rc;
	if (digest_file(path, d, &errnum))
		return pc_err_set_errno(err,
					errnum == ENOENT ? PC_ENOENT : PC_EIO,
					errnum, "cannot read '%s'", path);
	crypto_sign_seed_keypair(pk, sk, seed);
	crypto_sign_detached(sig, NULL, d, 32, sk);
	sodium_memzero(sk, sizeof(sk));
	sodium_memzero(seed, sizeof(seed));
	sodium_bin2base64(b64, sizeof(b64), sig, 64,
			  sodium_base64_VARIANT_ORIGINAL);
	sodium_bin2hex(hex, sizeof(hex), d, 32);
	out = comments ? pc_xasprintf("%s\n" SIG_COMMENT "\n# plugin: %s\n"
				      "# sha256: %s\n",
				      b64, base, hex)
		       : pc_xasprintf("%s\n", b64);
	if (!sig_path)
		sig_path = def = pc_xasprintf("%s.sig", path);
	rc = write_mode(sig_path, out, 0644, err);
	free(out);
	free(def);
	return rc;
}

int pc_chatcli_sign(const char *path, const char *key_path,
		    const char *sig_path, struct pc_err *err)
{
	return sign(path, key_path, sig_path, true, err);
}

int pc_chatcli_sign_head(const char *path, const char *key_path,
			 const char *sig_path, struct pc_err *err)
{
	return sign(path, key_path, sig_path, false, err);
}

/* --- which format a file uses (§6.B vs HEAD) ---------------------------- */

static char *after_prefix(const char *line, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	if (n < pl || memcmp(line, prefix, pl))
		return NULL;
	return pc_xmemdup(line + pl, n - pl);
}

void pc_chatcli_sig_info_parse(const char *text, size_t n,
			       struct pc_chatcli_sig_info *i)
{
	const char *s = text, *l[4];
	size_t len[4], nl = 0;

	i->format = PC_CHATCLI_SIG_HEAD;
	i->plugin = i->sha256 = NULL;
	pc__chatcli_trim_space(&s, &n); /* strings.TrimSpace, as G3 */
	/* split into at most 4 lines, the last holding the rest */
	while (nl < 4) {
		const char *e = nl < 3 ? memchr(s, '\n', n) : NULL;
		size_t ln = e ? (size_t)(e - s) : n;

		l[nl] = s;
		len[nl++] = ln;
		if (!e)
			break;
		s = e + 1;
		n -= ln + 1;
	}
	if (nl == 1)
		return;
	i->format = PC_CHATCLI_SIG_OTHER;
	if (nl != 4 || len[1] != strlen(SIG_COMMENT) ||
	    memcmp(l[1], SIG_COMMENT, len[1]) || memchr(l[3], '\n', len[3]))
		return;
	i->plugin = after_prefix(l[2], len[2], "# plugin: ");
	i->sha256 = after_prefix(l[3], len[3], "# sha256: ");
	if (i->plugin && i->sha256 && !memchr(i->plugin, '\0', len[2] - 10) &&
	    !memchr(i->sha256, '\0', len[3] - 10)) {
		i->format = PC_CHATCLI_SIG_UPSTREAM;
		return;
	}
	pc_chatcli_sig_info_release(i);
	i->format = PC_CHATCLI_SIG_OTHER;
}

void pc_chatcli_sig_info_release(struct pc_chatcli_sig_info *i)
{
	free(i->plugin);
	free(i->sha256);
	i->plugin = i->sha256 = NULL;
}

const char *pc_chatcli_sig_format_name(enum pc_chatcli_sig_format f)
{
	return f == PC_CHATCLI_SIG_HEAD	      ? "head"
	       : f == PC_CHATCLI_SIG_UPSTREAM ? "upstream"
					      : "other";
}

const char *pc_chatcli_key_format(const char *text, size_t n)
{
	struct pc_buf der = PC_BUF_INIT(FILE_MAX);
	unsigned char pk[32];
	const char *f = NULL;
	struct view type;

	if (!parse_pub(text, n, pk))
		return NULL;
	if (!pem_decode(vw(text, n), &type, &der))
		f = "base64";
	else if (view_is(type, "PUBLIC KEY") &&
		 der.len == sizeof(pkix_prefix) + 32 &&
		 !memcmp(der.data, pkix_prefix, sizeof(pkix_prefix)))
		f = "pkix-pem";
	else
		f = "pem";
	pc_buf_release(&der);
	return f;
}

char *pc_chatcli_digest_hex(const char *path)
{
	unsigned char d[32];
	char hex[65];
	int errnum;

	ensure_sodium();
	if (digest_file(path, d, &errnum))
		return NULL;
	sodium_bin2hex(hex, sizeof(hex), d, 32);
	return pc_xstrdup(hex);
}

static bool name_ok(const char *n)
{
	if (!*n || !strcmp(n, ".") || !strcmp(n, ".."))
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && !strchr("-_.", *n))
			return false;
	return true;
}

int pc_chatcli_trust(const char *pub_path, const char *keys_dir,
		     const char *name, char **written, struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT(1 << 20);
	unsigned char pk[32], der[44];
	char *def = NULL, *dot, *pem, *file, *dest;
	const char *base =
		strrchr(pub_path, '/') ? strrchr(pub_path, '/') + 1 : pub_path;
	int rc = pc_fs_read_stream(pub_path, &b, PC_FS_STREAM_MS, err);

	if (rc)
		return rc;
	if (!parse_pub(b.data ? b.data : "", b.len, pk)) {
		pc_buf_release(&b);
		return pc_err_set(
			err, PC_EINVAL,
			"'%s' is not an Ed25519 public key (PEM or base64)",
			pub_path);
	}
	pc_buf_release(&b);
	if (!name) {
		def = pc_xstrdup(base);
		if ((dot = strrchr(def, '.')) != NULL && dot != def)
			*dot = '\0';
		name = def;
	}
	if (!name_ok(name)) {
		rc = pc_err_set(
			err, PC_EINVAL,
			"invalid key name '%s': use letters, digits, '-', '_' and '.'",
			name);
		free(def);
		return rc;
	}
	memcpy(der, pkix_prefix, sizeof(pkix_prefix));
	memcpy(der + sizeof(pkix_prefix), pk, 32);
	pem = pem_encode("PUBLIC KEY", der, sizeof(der));
	file = pc_xasprintf("%s.pub", name);
	dest = pc_fs_join(keys_dir, file);
	rc = mkdir_0700(keys_dir, err);
	if (!rc)
		rc = write_mode(dest, pem, 0644, err);
	if (!rc && written)
		*written = dest;
	else
		free(dest);
	free(file);
	free(pem);
	free(def);
	return rc;
}

const char *pc_chatcli_sig_status(const char *path, const char *keys_dir)
{
	char *e = NULL;
	const char *st;

	if (!pc_chatcli_sig_verify(path, keys_dir, false, &e, NULL))
		return "verified";
	st = !strcmp(e, "plugin signature file not found") ? "unsigned"
	     : !strcmp(e, "no trusted public keys found")  ? "unverifiable"
	     : !strncmp(e, "failed to read", 14)	   ? "error"
							   : "untrusted";
	free(e);
	return st;
}
