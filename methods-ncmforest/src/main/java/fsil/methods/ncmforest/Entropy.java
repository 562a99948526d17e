package fsil.methods.ncmforest;

/**
 * Information gain of a binary partition from class counts (natural logarithm, paper Eq. 3).
 *
 * <p>With S(X) = sum over classes of n_c ln n_c, the entropy of a set of size n is H = ln n - S/n, so the gain of
 * splitting a node of size n into (nL, nR) is
 * IG = [n ln n - S - (nL ln nL - S_L) - (nR ln nR - S_R)] / n. A table of k ln k makes every term a lookup.
 */
final class Entropy {
    private final double[] nlogn;

    /** @param maxCount counts up to this value are tabulated; larger ones are computed */
    Entropy(int maxCount) {
        nlogn = new double[maxCount + 1];
        for (int k = 2; k <= maxCount; k++) {
            nlogn[k] = k * Math.log(k);
        }
    }

    /** k ln k, with 0 ln 0 = 0. */
    double nlogn(int k) {
        return k < nlogn.length ? nlogn[k] : k * Math.log(k);
    }

    /**
     * Information gain from the sufficient statistics of a partition.
     *
     * @param n      node size
     * @param sAll   sum of n_c ln n_c over the node's classes
     * @param nLeft  size of the left child
     * @param sLeft  sum of n_c ln n_c over the left child
     * @param sRight sum of n_c ln n_c over the right child
     */
    double gain(int n, double sAll, int nLeft, double sLeft, double sRight) {
        int nRight = n - nLeft;
        return (nlogn(n) - sAll - nlogn(nLeft) + sLeft - nlogn(nRight) + sRight) / n;
    }

    /** Shannon entropy (nats) of a histogram; used by tests as the direct definition. */
    static double entropy(int[] counts) {
        long n = 0;
        for (int c : counts) {
            n += c;
        }
        double h = 0;
        for (int c : counts) {
            if (c > 0) {
                double p = c / (double) n;
                h -= p * Math.log(p);
            }
        }
        return h;
    }
}
