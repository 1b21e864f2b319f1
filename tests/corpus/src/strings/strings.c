/* String processing: tokenising, word statistics, reversing, case mapping, palindromes. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char text[] =
	"It was the best of times, it was the worst of times, it was the age of wisdom, "
	"it was the age of foolishness, it was the epoch of belief, it was the epoch of "
	"incredulity, it was the season of Light, it was the season of Darkness. "
	"A man, a plan, a canal: Panama. Was it a car or a cat I saw? Level, radar, refer.";

/* Reverses s in place. */
static void reverse(char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n / 2; i++) {
		char t = s[i];

		s[i] = s[n - 1 - i];
		s[n - 1 - i] = t;
	}
}

/* Returns 1 if s reads the same backwards ignoring case and non-letters. */
static int palindrome(const char *s)
{
	const char *e = s + strlen(s);

	while (s < e) {
		if (!isalpha((unsigned char)*s)) {
			s++;
			continue;
		}
		if (!isalpha((unsigned char)e[-1])) {
			e--;
			continue;
		}
		if (tolower((unsigned char)*s) != tolower((unsigned char)e[-1]))
			return 0;
		s++;
		e--;
	}
	return 1;
}

/* Splits a copy of text into words, adding each to the table; returns the token count. */
static int count_words(char words[][16], int *counts, int *nwords)
{
	char buf[sizeof(text)];
	char *save, *tok;
	int ntok = 0, i;

	memcpy(buf, text, sizeof(text));
	for (tok = strtok_r(buf, " ,.:?", &save); tok; tok = strtok_r(NULL, " ,.:?", &save)) {
		char low[16];

		ntok++;
		for (i = 0; tok[i] && i < 15; i++)
			low[i] = (char)tolower((unsigned char)tok[i]);
		low[i] = 0;
		for (i = 0; i < *nwords; i++)
			if (!strcmp(words[i], low))
				break;
		if (i == *nwords && *nwords < 64)
			strcpy(words[(*nwords)++], low);
		if (i < 64)
			counts[i]++;
	}
	return ntok;
}

int main(void)
{
	char buf[sizeof(text)];
	char words[64][16];
	int counts[64] = { 0 };
	int nwords = 0, ntok = 0, i, r, best = 0, pals = 0;
	char *save, *sent;

	for (r = 0; r < 10; r++)
		ntok += count_words(words, counts, &nwords);
	for (i = 1; i < nwords; i++)
		if (counts[i] > counts[best])
			best = i;
	printf("tokens=%d distinct=%d most=%s x%d\n", ntok, nwords, words[best], counts[best]);
	memcpy(buf, text, sizeof(text));
	for (sent = strtok_r(buf, ".?", &save); sent; sent = strtok_r(NULL, ".?", &save)) {
		char tmp[128];

		while (*sent == ' ')
			sent++;
		if (palindrome(sent)) {
			pals++;
			snprintf(tmp, sizeof(tmp), "%s", sent);
			reverse(tmp);
			printf("palindrome: %s | %s\n", sent, tmp);
		}
	}
	memcpy(buf, text, sizeof(text));
	for (i = 0; buf[i]; i++)
		if (islower((unsigned char)buf[i]) && (i / 5) % 2)
			buf[i] = (char)toupper((unsigned char)buf[i]);
	printf("pals=%d mixed=%.40s\n", pals, buf);
	return 0;
}
