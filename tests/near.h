/* Tolerance assertions with a readable failure: the expression, its value, the expectation. */
#ifndef SINEW_TEST_NEAR_H
#define SINEW_TEST_NEAR_H

/* Fails the current cmocka test unless |actual - expected| <= tolerance. */
void near_at(double actual, double expected, double tolerance, const char *what, const char *file, int line);

/* absolute tolerance */
#define NEAR(actual, expected, tolerance) \
	near_at((double)(actual), (double)(expected), (double)(tolerance), #actual, __FILE__, __LINE__)
#define NEAR_V(v, ex, ey, tolerance)         \
	do {                                     \
		NEAR((v).x, (ex), (tolerance));      \
		NEAR((v).y, (ey), (tolerance));      \
	} while (0)

#endif
