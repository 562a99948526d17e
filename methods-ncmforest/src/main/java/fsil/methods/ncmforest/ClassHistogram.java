package fsil.methods.ncmforest;

import java.util.Arrays;

/**
 * Class counts of a set of samples: the classes present (ascending internal indices) and their counts.
 *
 * @param classes present classes, ascending
 * @param counts  count of each
 * @param total   number of samples
 */
record ClassHistogram(int[] classes, int[] counts, int total) {

    int size() {
        return classes.length;
    }

    /**
     * Histogram of {@code labels[samples[i]]} for i in [0, n).
     *
     * @param scratch an all-zero array with one slot per class; left all-zero on return
     */
    static ClassHistogram of(int[] samples, int n, int[] labels, int[] scratch) {
        IntList present = new IntList();
        for (int i = 0; i < n; i++) {
            int c = labels[samples[i]];
            if (scratch[c]++ == 0) {
                present.add(c);
            }
        }
        int[] cls = present.toSortedArray();
        int[] cnt = new int[cls.length];
        for (int k = 0; k < cls.length; k++) {
            cnt[k] = scratch[cls[k]];
            scratch[cls[k]] = 0;
        }
        return new ClassHistogram(cls, cnt, n);
    }

    @Override
    public String toString() {
        return Arrays.toString(classes) + "x" + Arrays.toString(counts);
    }
}
