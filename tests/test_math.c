/* sinew_atan2 (include/sinew/math.h), the angle behind sinew_rot_angle, sinew_relative_angle and the
 * joints' angles: its error against double atan2 over the whole range of float inputs, its signs,
 * zeros, infinities and NaN as C's atan2f, the branch cut at +-pi, and no step where its range
 * reduction changes branch. */
#include "support.h"

#include <stdint.h>
#include <string.h>

/* The bound the header states: 0.5 ulp (the float rounding) plus 2^-11 ulp (the polynomial). */
#define ULP_BOUND (0.5 + 1.0 / 2048.0)

/* One float ulp at the magnitude of r (subnormal results have the smallest ulp). */
static double float_ulp(double r)
{
	int e;
	(void)frexp(fabs(r), &e); /* |r| = m 2^e, m in [0.5, 1): ulp = 2^(e - 24) */
	return ldexp(1.0, e - 24 < -149 ? -149 : e - 24);
}

typedef struct sweep {
	double worst; /* in ulps against double atan2 */
	long count, rounded; /* samples, and how many were the correctly rounded float */
} sweep;

static void measure(sweep *s, float y, float x)
{
	double exact = atan2((double)y, (double)x);
	float got = sinew_atan2(y, x);
	double err = fabs((double)got - exact) / float_ulp(exact);
	if (err > s->worst) s->worst = err;
	s->count += 1;
	if (got == (float)exact) s->rounded += 1;
}

static float float_from_bits(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static uint32_t s_seed = 12345u;
static uint32_t next_random(void)
{
	s_seed ^= s_seed << 13, s_seed ^= s_seed >> 17, s_seed ^= s_seed << 5;
	return s_seed;
}

static void within_rounding_over_all_angles(void **state)
{
	(void)state;
	sweep s = {0.0, 0, 0};
	/* a dense sweep of the circle at radii from subnormal to huge */
	const float radii[] = {1e-42f, 3e-30f, 1e-6f, 0.37f, 1.0f, 2.5f, 7e4f, 1e30f};
	for (size_t r = 0; r < sizeof radii / sizeof radii[0]; ++r)
		for (int i = -200000; i <= 200000; ++i) {
			double t = 3.14159265358979323846 * i / 200000.0;
			measure(&s, (float)(radii[r] * sin(t)), (float)(radii[r] * cos(t)));
		}
	/* any two finite floats (random bits: every exponent, both signs, subnormals) */
	for (int i = 0; i < 2000000; ++i) {
		float y = float_from_bits(next_random()), x = float_from_bits(next_random());
		if (isfinite(y) && isfinite(x)) measure(&s, y, x);
	}
	/* both within a few binades of each other, where the angle is not near an axis */
	for (int i = 0; i < 2000000; ++i) {
		uint32_t a = next_random(), e = 0x3f000000u + (a & 0x01ffffffu); /* exponents -1 .. 2 */
		float y = float_from_bits(e | (a & 0x80000000u)), x = float_from_bits(0x3f000000u + (next_random() & 0x81ffffffu));
		measure(&s, y, x);
	}
	print_message("sinew_atan2: %ld samples, worst %.6f ulp, correctly rounded %.5f %%\n", s.count, s.worst,
	              100.0 * (double)s.rounded / (double)s.count);
	assert_true(s.worst <= ULP_BOUND);
	/* only an angle within the polynomial's error of a rounding midpoint can round the other way:
	 * 0.004 % of these samples (the worst is 0.5003 ulp) */
	assert_true(s.rounded >= s.count - s.count / 5000);
}

/* C's atan2f (Annex F) for zeros, infinities and NaN; the float nearest pi for the angle +-pi. */
static void special_values_as_c(void **state)
{
	(void)state;
	const float inf = INFINITY, pi = 3.14159265358979323846f, half = 1.57079632679489661923f;
	const struct { float y, x, want; } cases[] = {
		{0.0f, 0.0f, 0.0f},      {-0.0f, 0.0f, -0.0f},    {0.0f, -0.0f, pi},       {-0.0f, -0.0f, -pi},
		{0.0f, -1.0f, pi},       {-0.0f, -1.0f, -pi},     {0.0f, 1.0f, 0.0f},      {-0.0f, 1.0f, -0.0f},
		{1.0f, 0.0f, half},      {1.0f, -0.0f, half},     {-1.0f, 0.0f, -half},    {-1.0f, -0.0f, -half},
		{inf, inf, pi / 4.0f},   {inf, -inf, 0.75f * pi}, {-inf, inf, -pi / 4.0f}, {-inf, -inf, -0.75f * pi},
		{1.0f, inf, 0.0f},       {-1.0f, inf, -0.0f},     {1.0f, -inf, pi},        {-1.0f, -inf, -pi},
		{inf, 1.0f, half},       {-inf, -1.0f, -half},    {inf, 0.0f, half},       {0.0f, inf, 0.0f},
		{1e-45f, -1.0f, pi},     {-1e-45f, -1.0f, -pi},   {1e-45f, 1.0f, 1e-45f},  {3e38f, 1e-45f, half},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
		float got = sinew_atan2(cases[i].y, cases[i].x);
		if (got != cases[i].want || signbit(got) != signbit(cases[i].want))
			print_error("atan2(%g, %g) = %.9g, want %.9g\n", (double)cases[i].y, (double)cases[i].x, (double)got,
			            (double)cases[i].want);
		assert_true(got == cases[i].want);
		assert_true(signbit(got) == signbit(cases[i].want));
		assert_true(got == atan2f(cases[i].y, cases[i].x)); /* the library agrees on each of these */
	}
	const float nan = NAN, some[] = {0.0f, -0.0f, 1.0f, -2.0f, inf, -inf};
	for (size_t i = 0; i < sizeof some / sizeof some[0]; ++i) {
		assert_true(isnan(sinew_atan2(nan, some[i])));
		assert_true(isnan(sinew_atan2(some[i], nan)));
	}
	assert_true(isnan(sinew_atan2(nan, nan)));
}

/* Across the negative x axis the angle jumps from pi to -pi and nowhere else; on it the sign of y
 * (of a zero too) picks the side. No result is beyond the float pi. */
static void branch_cut(void **state)
{
	(void)state;
	const float pi = 3.14159265358979323846f;
	/* y falling to +0 (through the subnormals): the angle rises to pi and stays within it */
	float prev = sinew_atan2(1e-3f, -1.0f);
	for (float y = 1e-3f; y > 0.0f; y *= 0.5f) {
		float a = sinew_atan2(y, -1.0f);
		assert_true(a >= prev && a <= pi);
		assert_true(sinew_atan2(-y, -1.0f) == -a); /* below the axis, the mirror image */
		prev = a;
	}
	assert_true(sinew_atan2(0.0f, -1.0f) == pi && prev <= pi);
	assert_true(sinew_atan2(-0.0f, -1.0f) == -pi); /* the side is the zero's sign */
	assert_true(sinew_atan2(nextafterf(0.0f, 1.0f), -1.0f) == pi);
	assert_true(sinew_atan2(-nextafterf(0.0f, 1.0f), -1.0f) == -pi);
}

/* Where the range reduction changes branch (the ratio tan(pi/8), the diagonal, tan(3 pi/8)), the
 * angle of consecutive floats does not step back: the two branches meet. */
static void monotone_across_the_reduction(void **state)
{
	(void)state;
	const double turns[] = {0.41421356237309503, 1.0, 2.4142135623730950};
	const float xs[] = {1.0f, -1.0f, 3.7f};
	for (size_t i = 0; i < sizeof turns / sizeof turns[0]; ++i)
		for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
			float x = xs[k], y = (float)(turns[i] * fabs((double)x));
			for (int n = 0; n < 2000; ++n) y = nextafterf(y, 0.0f);
			float prev = sinew_atan2(y, x);
			for (int n = 0; n < 4000; ++n) {
				y = nextafterf(y, INFINITY);
				float a = sinew_atan2(y, x);
				if (x > 0.0f) assert_true(a >= prev); /* turning from +x towards +y */
				else assert_true(a <= prev);          /* from -x, the angle falls from pi */
				prev = a;
			}
		}
}

/* The helpers built on it: rot_angle of make_rot gives the angle back, relative_angle the difference. */
static void rotation_helpers(void **state)
{
	(void)state;
	for (int i = -1000; i <= 1000; ++i) {
		float a = 3.1f * (float)i / 1000.0f, b = 0.7f - 1.3f * (float)i / 1000.0f;
		sinew_rot qa = sinew_make_rot(a), qb = sinew_make_rot(b);
		assert_float_near(sinew_rot_angle(qa), a, 4e-7);
		double d = remainder((double)b - (double)a, 2.0 * 3.14159265358979323846);
		assert_float_near(sinew_relative_angle(qa, qb), d, 1e-6);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(within_rounding_over_all_angles),
		cmocka_unit_test(special_values_as_c),
		cmocka_unit_test(branch_cut),
		cmocka_unit_test(monotone_across_the_reduction),
		cmocka_unit_test(rotation_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
