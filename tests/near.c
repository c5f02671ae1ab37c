#include "near.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

void near_at(double actual, double expected, double tolerance, const char *what, const char *file, int line)
{
	if (!(fabs(actual - expected) <= tolerance)) {
		print_error("%s:%d: %s = %.9g, expected %.9g (tolerance %g)\n", file, line, what, actual, expected, tolerance);
		_fail(file, line);
	}
}
