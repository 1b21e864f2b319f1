#ifndef CALC_H
#define CALC_H
enum tok_kind { T_END, T_NUM, T_VAR, T_OP, T_LPAR, T_RPAR, T_ASSIGN, T_COMMA, T_ERR };
struct token { enum tok_kind kind; long num; char op; char name[8]; int pos; };
enum { E_OK = 0, E_SYNTAX = 1, E_DIVZERO = 2, E_UNDEF = 3, E_OVERFLOW = 4, E_PAREN = 5, E_TOKEN = 6 };
int tokenize(const char *s, struct token *out, int max);
int evaluate(const char *s, long *result);
const char *err_name(int e);
long get_var(const char *name, int *ok);
void set_var(const char *name, long v);
#endif
