/* One in-place ascending sort of integer keys for the solver's hot paths, instantiated per key type
 * (SINEW_DEFINE_SORT(name, type) defines `static void name(type *keys, int count)`): quicksort
 * (median of three, the smaller side first so the recursion stays under log2 n deep) down to runs of
 * 16, then insertion sort. No allocation and no call per comparison: glibc's qsort takes a merge
 * buffer from malloc, and a step must not allocate. Keys that compare equal are equal, so any
 * correct sort gives the same order and results stay deterministic. */
#ifndef SINEW_SORT_H
#define SINEW_SORT_H

#define SINEW_DEFINE_SORT(name, type)                                                                             \
	static void name(type *keys, int count)                                                                   \
	{                                                                                                         \
		while (count > 16) {                                                                              \
			type a = keys[0], b = keys[count / 2], c = keys[count - 1];                                   \
			type pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));           \
			int i = 0, j = count - 1;                                                                     \
			for (;;) { /* Hoare partition: [0, i) <= pivot <= (j, count) */                               \
				while (keys[i] < pivot) ++i;                                                          \
				while (keys[j] > pivot) --j;                                                          \
				if (i >= j) break;                                                                    \
				type t = keys[i];                                                                     \
				keys[i++] = keys[j];                                                                  \
				keys[j--] = t;                                                                        \
			}                                                                                             \
			int left = j + 1; /* [0, left) and [left, count), both non-empty */                          \
			if (left < count - left) {                                                                    \
				name(keys, left);                                                                     \
				keys += left;                                                                         \
				count -= left;                                                                        \
			} else {                                                                                      \
				name(keys + left, count - left);                                                      \
				count = left;                                                                         \
			}                                                                                             \
		}                                                                                                 \
		for (int i = 1; i < count; ++i) {                                                                 \
			type k = keys[i];                                                                             \
			int j = i;                                                                                    \
			for (; j > 0 && keys[j - 1] > k; --j) keys[j] = keys[j - 1];                                  \
			keys[j] = k;                                                                                  \
		}                                                                                                 \
	}

#endif
