/* Entry point for the -nostdlib builds: calls main, then loops (the tests
 * only read the ELF, they never run it). */
extern int main(void);

void _start(void)
{
	main();
	for (;;)
		;
}
