// <string.h> (Libc, include/string.h).
#ifndef AFFIX_STANDIN_STRING_H
#define AFFIX_STANDIN_STRING_H
int strcmp(const char *__s1, const char *__s2);
#endif
