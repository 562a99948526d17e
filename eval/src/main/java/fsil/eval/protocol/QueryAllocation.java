package fsil.eval.protocol;

/**
 * Dirichlet proportions to integer query counts, exactly as the realistic transductive few-shot code (Veilleux
 * et al.) and BAVARDAGE do it (specs/bavardage.md §6.1): x = Q p; round half to even; while the rounded sum
 * exceeds Q, floor the entry whose fractional part is closest to 0.5 (ties to the lowest index), and ceil it
 * while the sum is short. Counts sum to Q; a class may get 0.
 */
final class QueryAllocation {
    private QueryAllocation() {
    }

    static int[] counts(double[] proportions, int total) {
        int k = proportions.length;
        double[] x = new double[k];
        for (int j = 0; j < k; j++) {
            x[j] = total * proportions[j];
        }
        long sum = roundedSum(x);
        while (sum != total) {
            int best = -1;
            double bestGap = Double.POSITIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double frac = x[j] - Math.floor(x[j]);
                if (frac == 0) {
                    continue; // already an integer: cannot move it
                }
                double gap = Math.abs(frac - 0.5);
                if (gap < bestGap) {
                    bestGap = gap;
                    best = j;
                }
            }
            if (best < 0) {
                break; // all integers: the sum equals Q up to rounding of the proportions
            }
            x[best] = sum > total ? Math.floor(x[best]) : Math.ceil(x[best]);
            sum = roundedSum(x);
        }
        int[] out = new int[k];
        for (int j = 0; j < k; j++) {
            out[j] = (int) Math.rint(x[j]);
        }
        return out;
    }

    private static long roundedSum(double[] x) {
        long s = 0;
        for (double v : x) {
            s += (long) Math.rint(v);
        }
        return s;
    }
}
