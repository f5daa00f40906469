/* pc_serde_read.c - serde_json's lexer: whitespace, idents, numbers,
 * strings and ignore_value, with serde_json's error positions.
 *
 * Each function follows the serde_json 1.0.150 method of the same name in
 * src/de.rs and src/read.rs (SliceRead), built without float_roundtrip
 * and without arbitrary_precision: numbers are parsed by the fast
 * f64_from_parts (significand as f64, times or divided by a power of ten),
 * which is NOT always correctly rounded; that is reproduced on purpose.
 */
#include <math.h>
#include <stdint.h>

#include "pc_serde_impl.h"

static int peek(const struct pc__serde_de *de)
{
	return de->i < de->len ? de->s[de->i] : -1;
}

/* peek_or_null: EOF reads as NUL. */
static int peek0(const struct pc__serde_de *de)
{
	return de->i < de->len ? de->s[de->i] : 0;
}

static int next(struct pc__serde_de *de)
{
	return de->i < de->len ? de->s[de->i++] : -1;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

int pc__serde_whitespace(struct pc__serde_de *de)
{
	int c;

	while ((c = peek(de)) == ' ' || c == '\n' || c == '\t' || c == '\r')
		de->i++;
	return c;
}

int pc__serde_parse_ident(struct pc__serde_de *de, const char *rest)
{
	for (; *rest; rest++) {
		int c = next(de);

		if (c < 0)
			return pc__serde_error(de, PC__SERDE_EOF_VALUE);
		if (c != (unsigned char)*rest)
			return pc__serde_error(de, PC__SERDE_IDENT);
	}
	return 0;
}

/* The overflow! macro: would a * 10 + b pass max? */
static bool overflows(uint64_t a, unsigned b, uint64_t max)
{
	return a >= max / 10 && (a > max / 10 || b > max % 10);
}

static int32_t sat_add(int32_t a, int64_t b)
{
	int64_t r = (int64_t)a + b;

	if (r > INT32_MAX)
		return INT32_MAX;
	if (r < INT32_MIN)
		return INT32_MIN;
	return (int32_t)r;
}

/* POW10 in de.rs: 1e0 ..= 1e308, each the correctly rounded double. */
/* clang-format off */
static const double pow10[309] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23,
	1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
	1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
	1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47,
	1e48, 1e49, 1e50, 1e51, 1e52, 1e53, 1e54, 1e55,
	1e56, 1e57, 1e58, 1e59, 1e60, 1e61, 1e62, 1e63,
	1e64, 1e65, 1e66, 1e67, 1e68, 1e69, 1e70, 1e71,
	1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
	1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87,
	1e88, 1e89, 1e90, 1e91, 1e92, 1e93, 1e94, 1e95,
	1e96, 1e97, 1e98, 1e99, 1e100, 1e101, 1e102, 1e103,
	1e104, 1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111,
	1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
	1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127,
	1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134, 1e135,
	1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143,
	1e144, 1e145, 1e146, 1e147, 1e148, 1e149, 1e150, 1e151,
	1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
	1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167,
	1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175,
	1e176, 1e177, 1e178, 1e179, 1e180, 1e181, 1e182, 1e183,
	1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191,
	1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
	1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207,
	1e208, 1e209, 1e210, 1e211, 1e212, 1e213, 1e214, 1e215,
	1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223,
	1e224, 1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231,
	1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
	1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247,
	1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254, 1e255,
	1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263,
	1e264, 1e265, 1e266, 1e267, 1e268, 1e269, 1e270, 1e271,
	1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
	1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287,
	1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295,
	1e296, 1e297, 1e298, 1e299, 1e300, 1e301, 1e302, 1e303,
	1e304, 1e305, 1e306, 1e307, 1e308,
};
/* clang-format on */

/* f64_from_parts without float_roundtrip: the rounding of each step is
 * part of the observable result, so keep the operations exactly. */
static int f64_from_parts(struct pc__serde_de *de, bool positive, uint64_t sig,
			  int32_t exponent, struct pc__serde_num *n)
{
	double f = (double)sig;
	int64_t e = exponent;

	for (;;) {
		uint64_t idx = (uint64_t)(e < 0 ? -e : e);

		if (idx <= 308) {
			if (e >= 0) {
				f *= pow10[idx];
				if (isinf(f))
					return pc__serde_error(de,
							       PC__SERDE_RANGE);
			} else {
				f /= pow10[idx];
			}
			break;
		}
		if (f == 0.0)
			break;
		if (e >= 0)
			return pc__serde_error(de, PC__SERDE_RANGE);
		f /= 1e308;
		e += 308;
	}
	n->kind = PC__SERDE_F64;
	n->f = positive ? f : -f;
	return 0;
}

static int parse_exponent_overflow(struct pc__serde_de *de, bool positive,
				   bool zero_sig, bool positive_exp,
				   struct pc__serde_num *n)
{
	if (!zero_sig && positive_exp)
		return pc__serde_error(de, PC__SERDE_RANGE);
	while (is_digit(peek0(de)))
		de->i++;
	n->kind = PC__SERDE_F64;
	n->f = positive ? 0.0 : -0.0;
	return 0;
}

static int parse_exponent(struct pc__serde_de *de, bool positive, uint64_t sig,
			  int32_t starting, struct pc__serde_num *n)
{
	bool positive_exp = true;
	int32_t exp;
	int c;

	de->i++;
	if (peek0(de) == '+') {
		de->i++;
	} else if (peek0(de) == '-') {
		de->i++;
		positive_exp = false;
	}
	c = next(de);
	if (c < 0)
		return pc__serde_error(de, PC__SERDE_EOF_VALUE);
	if (!is_digit(c))
		return pc__serde_error(de, PC__SERDE_NUMBER);
	exp = c - '0';
	while (is_digit(c = peek0(de))) {
		unsigned d = (unsigned)(c - '0');

		de->i++;
		if (overflows((uint64_t)exp, d, INT32_MAX))
			return parse_exponent_overflow(de, positive, sig == 0,
						       positive_exp, n);
		exp = exp * 10 + (int32_t)d;
	}
	return f64_from_parts(de, positive, sig,
			      sat_add(starting, positive_exp ? exp : -exp), n);
}

static int parse_decimal_overflow(struct pc__serde_de *de, bool positive,
				  uint64_t sig, int32_t exponent,
				  struct pc__serde_num *n)
{
	int c;

	while (is_digit(peek0(de)))
		de->i++;
	c = peek0(de);
	if (c == 'e' || c == 'E')
		return parse_exponent(de, positive, sig, exponent, n);
	return f64_from_parts(de, positive, sig, exponent, n);
}

static int parse_decimal(struct pc__serde_de *de, bool positive, uint64_t sig,
			 int32_t before, struct pc__serde_num *n)
{
	int32_t after = 0;
	int c;

	de->i++;
	while (is_digit(c = peek0(de))) {
		unsigned d = (unsigned)(c - '0');

		if (overflows(sig, d, UINT64_MAX))
			return parse_decimal_overflow(de, positive, sig,
						      before + after, n);
		de->i++;
		sig = sig * 10 + d;
		after--;
	}
	if (after == 0)
		return pc__serde_peek_error(de, peek(de) < 0
							? PC__SERDE_EOF_VALUE
							: PC__SERDE_NUMBER);
	c = peek0(de);
	if (c == 'e' || c == 'E')
		return parse_exponent(de, positive, sig, before + after, n);
	return f64_from_parts(de, positive, sig, before + after, n);
}

static int parse_long_integer(struct pc__serde_de *de, bool positive,
			      uint64_t sig, struct pc__serde_num *n)
{
	int32_t exponent = 0;

	for (;;) {
		int c = peek0(de);

		if (is_digit(c)) {
			de->i++;
			exponent++;
		} else if (c == '.') {
			return parse_decimal(de, positive, sig, exponent, n);
		} else if (c == 'e' || c == 'E') {
			return parse_exponent(de, positive, sig, exponent, n);
		} else {
			return f64_from_parts(de, positive, sig, exponent, n);
		}
	}
}

static int parse_number(struct pc__serde_de *de, bool positive, uint64_t sig,
			struct pc__serde_num *n)
{
	int c = peek0(de);
	int64_t neg;

	if (c == '.')
		return parse_decimal(de, positive, sig, 0, n);
	if (c == 'e' || c == 'E')
		return parse_exponent(de, positive, sig, 0, n);
	if (positive) {
		n->kind = PC__SERDE_U64;
		n->u = sig;
		return 0;
	}
	/* (significand as i64).wrapping_neg(); -0 and < i64::MIN are f64 */
	neg = (int64_t)(0 - sig);
	if (neg >= 0) {
		n->kind = PC__SERDE_F64;
		n->f = -(double)sig;
	} else {
		n->kind = PC__SERDE_I64;
		n->i = neg;
	}
	return 0;
}

int pc__serde_parse_integer(struct pc__serde_de *de, bool positive,
			    struct pc__serde_num *n)
{
	int c = next(de);
	uint64_t sig;

	if (c < 0)
		return pc__serde_error(de, PC__SERDE_EOF_VALUE);
	if (c == '0') {
		if (is_digit(peek0(de)))
			return pc__serde_peek_error(de, PC__SERDE_NUMBER);
		return parse_number(de, positive, 0, n);
	}
	if (!is_digit(c))
		return pc__serde_error(de, PC__SERDE_NUMBER);
	sig = (uint64_t)(c - '0');
	while (is_digit(c = peek0(de))) {
		unsigned d = (unsigned)(c - '0');

		if (overflows(sig, d, UINT64_MAX))
			return parse_long_integer(de, positive, sig, n);
		de->i++;
		sig = sig * 10 + d;
	}
	return parse_number(de, positive, sig, n);
}

static int ignore_exponent(struct pc__serde_de *de)
{
	int c;

	de->i++;
	c = peek0(de);
	if (c == '+' || c == '-')
		de->i++;
	c = next(de);
	if (!is_digit(c))
		return pc__serde_error(de, PC__SERDE_NUMBER);
	while (is_digit(peek0(de)))
		de->i++;
	return 0;
}

static int ignore_decimal(struct pc__serde_de *de)
{
	bool digits = false;
	int c;

	de->i++;
	while (is_digit(peek0(de))) {
		de->i++;
		digits = true;
	}
	if (!digits)
		return pc__serde_peek_error(de, PC__SERDE_NUMBER);
	c = peek0(de);
	return c == 'e' || c == 'E' ? ignore_exponent(de) : 0;
}

static int ignore_integer(struct pc__serde_de *de)
{
	int c = next(de);

	if (c == '0') {
		if (is_digit(peek0(de)))
			return pc__serde_peek_error(de, PC__SERDE_NUMBER);
	} else if (c >= '1' && c <= '9') {
		while (is_digit(peek0(de)))
			de->i++;
	} else {
		return pc__serde_error(de, PC__SERDE_NUMBER);
	}
	c = peek0(de);
	if (c == '.')
		return ignore_decimal(de);
	return c == 'e' || c == 'E' ? ignore_exponent(de) : 0;
}

/* SliceRead::skip_to_escape: advance to the next '"', '\\' or control
 * character (or the end). */
static void skip_to_escape(struct pc__serde_de *de)
{
	while (de->i < de->len) {
		unsigned char c = de->s[de->i];

		if (c == '"' || c == '\\' || c < 0x20)
			return;
		de->i++;
	}
}

static int hex_val(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* SliceRead::decode_hex_escape */
static int decode_hex_escape(struct pc__serde_de *de, unsigned *out)
{
	unsigned v = 0;
	size_t k;

	if (de->len - de->i < 4) {
		de->i = de->len;
		return pc__serde_error(de, PC__SERDE_EOF_STRING);
	}
	for (k = 0; k < 4; k++) {
		int h = hex_val(de->s[de->i + k]);

		if (h < 0) {
			de->i += 4;
			return pc__serde_error(de, PC__SERDE_ESCAPE);
		}
		v = v << 4 | (unsigned)h;
	}
	de->i += 4;
	*out = v;
	return 0;
}

static void push_utf8(struct pc_buf *b, unsigned cp)
{
	unsigned char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (unsigned char)(0xC0 | cp >> 6);
		u[1] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (unsigned char)(0xE0 | cp >> 12);
		u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (unsigned char)(0xF0 | cp >> 18);
		u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (unsigned char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	(void)pc_buf_add(b, u, n);
}

/* After a leading surrogate: serde_json (validate = true) wants "\u"
 * and a trailing surrogate, peeking each byte and consuming it even
 * when it is wrong. */
static int expect_byte(struct pc__serde_de *de, unsigned char want)
{
	int c = peek(de);

	if (c < 0)
		return pc__serde_error(de, PC__SERDE_EOF_STRING);
	de->i++;
	if (c != want)
		return pc__serde_error(de, PC__SERDE_HEX_END);
	return 0;
}

/* parse_unicode_escape with validate = true (StrRead::parse_str). */
static int parse_unicode_escape(struct pc__serde_de *de)
{
	unsigned n, n2;

	if (decode_hex_escape(de, &n) < 0)
		return -1;
	if (n >= 0xDC00 && n <= 0xDFFF)
		return pc__serde_error(de, PC__SERDE_LONE);
	if (n < 0xD800 || n > 0xDBFF) {
		push_utf8(&de->scratch, n);
		return 0;
	}
	if (expect_byte(de, '\\') < 0 || expect_byte(de, 'u') < 0 ||
	    decode_hex_escape(de, &n2) < 0)
		return -1;
	if (n2 < 0xDC00 || n2 > 0xDFFF)
		return pc__serde_error(de, PC__SERDE_LONE);
	push_utf8(&de->scratch, ((n - 0xD800) << 10 | (n2 - 0xDC00)) + 0x10000);
	return 0;
}

static bool is_simple_escape(int c)
{
	return c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' ||
	       c == 'n' || c == 'r' || c == 't';
}

static int parse_escape(struct pc__serde_de *de)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	int c = next(de);
	size_t k;

	if (c < 0)
		return pc__serde_error(de, PC__SERDE_EOF_STRING);
	if (c == 'u')
		return parse_unicode_escape(de);
	for (k = 0; from[k]; k++) {
		if (c == from[k]) {
			(void)pc_buf_addch(&de->scratch, to[k]);
			return 0;
		}
	}
	return pc__serde_error(de, PC__SERDE_ESCAPE);
}

/* SliceRead::parse_str_bytes after the opening quote: the unescaped
 * bytes go to de->scratch. The input is UTF-8 (StrRead), so invalid
 * UTF-8 is passed through rather than checked. */
int pc__serde_parse_str(struct pc__serde_de *de)
{
	pc_buf_reset(&de->scratch);
	for (;;) {
		size_t start = de->i;
		unsigned char c;

		skip_to_escape(de);
		(void)pc_buf_add(&de->scratch, de->s + start, de->i - start);
		if (de->i == de->len)
			return pc__serde_error(de, PC__SERDE_EOF_STRING);
		c = de->s[de->i++];
		if (c == '"')
			return 0;
		if (c != '\\')
			return pc__serde_error(de, PC__SERDE_CONTROL);
		if (parse_escape(de) < 0)
			return -1;
	}
}

/* SliceRead::ignore_str: unlike parse_str, a control character is
 * reported BEFORE it is consumed, and \u escapes are not paired. */
static int ignore_str(struct pc__serde_de *de)
{
	for (;;) {
		unsigned char c;
		unsigned n;
		int e;

		skip_to_escape(de);
		if (de->i == de->len)
			return pc__serde_error(de, PC__SERDE_EOF_STRING);
		c = de->s[de->i];
		if (c == '"') {
			de->i++;
			return 0;
		}
		if (c != '\\')
			return pc__serde_error(de, PC__SERDE_CONTROL);
		de->i++;
		e = next(de);
		if (e < 0)
			return pc__serde_error(de, PC__SERDE_EOF_STRING);
		if (e == 'u') {
			if (decode_hex_escape(de, &n) < 0)
				return -1;
		} else if (!is_simple_escape(e)) {
			return pc__serde_error(de, PC__SERDE_ESCAPE);
		}
	}
}

static int pop(struct pc_buf *stack)
{
	int c = (unsigned char)stack->data[--stack->len];

	stack->data[stack->len] = '\0';
	return c;
}

/* One scalar of ignore_value; *frame gets '[' or '{' when one opens. */
static int ignore_scalar(struct pc__serde_de *de, int c, int *frame)
{
	*frame = 0;
	switch (c) {
	case 'n':
		de->i++;
		return pc__serde_parse_ident(de, "ull");
	case 't':
		de->i++;
		return pc__serde_parse_ident(de, "rue");
	case 'f':
		de->i++;
		return pc__serde_parse_ident(de, "alse");
	case '-':
		de->i++;
		return ignore_integer(de);
	case '"':
		de->i++;
		return ignore_str(de);
	case '[':
	case '{':
		de->i++;
		*frame = c;
		return 0;
	default:
		if (is_digit(c))
			return ignore_integer(de);
		return pc__serde_peek_error(de, PC__SERDE_VALUE);
	}
}

/* The inner loop of ignore_value: close frames or take a comma. Returns
 * 1 when the whole value is done. */
static int ignore_close(struct pc__serde_de *de, struct pc_buf *stack,
			int *frame, bool accept_comma)
{
	for (;;) {
		int c = pc__serde_whitespace(de);

		if (c == ',' && accept_comma) {
			de->i++;
			return 0;
		}
		if (c < 0)
			return pc__serde_peek_error(
				de, *frame == '[' ? PC__SERDE_EOF_LIST
						  : PC__SERDE_EOF_OBJECT);
		if (!(c == ']' && *frame == '[') &&
		    !(c == '}' && *frame == '{')) {
			if (!accept_comma)
				return 0;
			return pc__serde_peek_error(
				de, *frame == '[' ? PC__SERDE_LIST_END
						  : PC__SERDE_OBJ_END);
		}
		de->i++;
		if (stack->len == 0)
			return 1;
		*frame = pop(stack);
		accept_comma = true;
	}
}

static int ignore_key(struct pc__serde_de *de)
{
	int c = pc__serde_whitespace(de);

	if (c != '"')
		return pc__serde_peek_error(de, c < 0 ? PC__SERDE_EOF_OBJECT
						      : PC__SERDE_KEY_STRING);
	de->i++;
	if (ignore_str(de) < 0)
		return -1;
	return pc__serde_object_colon(de);
}

/* Deserializer::ignore_value: iterative, so no recursion limit applies
 * (as in serde_json); the open frames live in a byte stack. */
static int ignore_loop(struct pc__serde_de *de, struct pc_buf *stack)
{
	int enclosing = 0;

	for (;;) {
		int c = pc__serde_whitespace(de), frame, r;
		bool accept_comma;

		if (c < 0)
			return pc__serde_peek_error(de, PC__SERDE_EOF_VALUE);
		if (ignore_scalar(de, c, &frame) < 0)
			return -1;
		if (frame) {
			if (enclosing)
				(void)pc_buf_addch(stack, (char)enclosing);
			enclosing = 0;
			accept_comma = false;
		} else if (enclosing) {
			frame = enclosing;
			enclosing = 0;
			accept_comma = true;
		} else if (stack->len) {
			frame = pop(stack);
			accept_comma = true;
		} else {
			return 0;
		}
		r = ignore_close(de, stack, &frame, accept_comma);
		if (r)
			return r < 0 ? -1 : 0;
		if (frame == '{' && ignore_key(de) < 0)
			return -1;
		enclosing = frame;
	}
}

int pc__serde_ignore_value(struct pc__serde_de *de)
{
	struct pc_buf stack = PC_BUF_INIT(PC_BUF_NOCAP);
	int r = ignore_loop(de, &stack);

	pc_buf_release(&stack);
	return r;
}
