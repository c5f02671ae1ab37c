/* Every public header compiles on its own as C99, C11 and C++11 (scripts/check_headers.sh, run by this test) and
 * the handles behave as documented. */
#include "support.h"

#include <stdlib.h>

static void each_header_compiles_alone(void **state)
{
	(void)state;
	int rc = system("sh scripts/check_headers.sh");
	assert_int_equal(rc, 0);
}

static void null_handles_are_null(void **state)
{
	(void)state;
	assert_true(SINEW_IS_NULL(sinew_null_body_id));
	assert_true(SINEW_IS_NULL(sinew_null_shape_id));
	assert_false(sinew_world_is_valid(sinew_null_world_id));
	assert_false(sinew_body_is_valid(sinew_null_body_id));
	assert_false(sinew_shape_is_valid(sinew_null_shape_id));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_header_compiles_alone),
		cmocka_unit_test(null_handles_are_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
