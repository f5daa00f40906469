/* pc_chatcli_impl.h - symbols shared by the files of pc_chatcli only (no
 * other folder includes this). */
#ifndef PC_CHATCLI_IMPL_H
#define PC_CHATCLI_IMPL_H

/* pc__chatcli_html_unescape - Go's html.UnescapeString for the entities
 * amp, lt, gt, quot, apos, nbsp and numeric references (A2, A4). Returns
 * a new string. */
char *pc__chatcli_html_unescape(const char *s);

#endif
