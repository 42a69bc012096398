/* cli_page.h: the page template the CLI fills (cli_page.c). */
#ifndef MM_CLI_PAGE_H
#define MM_CLI_PAGE_H

#include <stddef.h>

/* The page template's path, and where the JSON goes in it. */
const char *cli_page_path(void);
size_t cli_page_split(const char *page, size_t len, char *why, size_t why_len);

#endif
