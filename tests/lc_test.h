/*
 * lc_test.h — what the cmocka test files share; include it after
 * <cmocka.h>.
 *
 *   LC_TEST_MAIN(SETUP, TEARDOWN, TEST...)  main(): run the TESTs
 *       (cmocka_unit_test(...) entries) as one group with the group's
 *       SETUP and TEARDOWN (NULL for none); its status is cmocka's.
 *   LC_T(TEST)  the entry of the test function TEST (cmocka_unit_test).
 */
#ifndef LC_TEST_H
#define LC_TEST_H

#define LC_T(test) cmocka_unit_test(test)

#define LC_TEST_MAIN(setup, teardown, ...)                                  \
	int main(void)                                                      \
	{                                                                   \
		const struct CMUnitTest tests[] = { __VA_ARGS__ };          \
		return cmocka_run_group_tests(tests, setup, teardown);      \
	}

#endif
