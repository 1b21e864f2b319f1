/* tokstate: a word counter driven by a state variable. At -O2 jump
 * threading sends each `break` of a state whose next state is known
 * straight back into that state's code, and the load of the next
 * character merges with the peek `s[1]` of the blank state, so the
 * threaded way runs code of the peek's line first: the way out of the
 * word state's one-line chain of tests lands on no line of its gcno
 * destination, and only the run of the chain's tests pairs them with
 * their blocks. */
#include <stdio.h>

enum st { BLANK, WORD, NUMBER };

struct tally {
	int words, numbers, marks, others;
};

static void scan(const char *src, struct tally *t)
{
	enum st st = BLANK;
	const char *s;

	for (s = src;; s++) {
		char ch = *s;

		switch (st) {
		case BLANK:
			if (ch == 0)
				return;
			if ((ch >= 'a' && ch <= 'z') || ch == '\'')
				st = WORD;
			else if (ch == '!' && s[1] == '!')
				t->marks++, s++;
			else if (ch >= '0' && ch <= '9')
				st = NUMBER;
			else if (ch != ' ')
				t->others++;
			break;
		case WORD:
			if ((ch >= 'a' && ch <= 'z') || ch == '\'' || ch == '-')
				break;
			t->words++;
			st = BLANK;
			s--;
			break;
		case NUMBER:
			if (ch >= '0' && ch <= '9')
				break;
			t->numbers++;
			st = BLANK;
			s--;
			break;
		}
	}
}

int main(void)
{
	static const char text[] =
		"the quick-witted fox's den had 12 exits!! and 7 doors, "
		"o'brien counted 300 well-known rabbits!! then slept; "
		"zz-top played 1984 songs in the rain !";
	struct tally t = { 0, 0, 0, 0 };

	for (int r = 0; r < 50; r++)
		scan(text, &t);
	printf("words=%d numbers=%d marks=%d others=%d\n", t.words, t.numbers,
	       t.marks, t.others);
	return 0;
}
