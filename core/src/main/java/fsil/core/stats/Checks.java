package fsil.core.stats;

/** Input checks shared by the stats classes; each failure is an IllegalArgumentException with a one-line message. */
final class Checks {
    private Checks() {
    }

    static void nonEmptyFinite(String name, double[] a) {
        if (a == null) {
            throw new IllegalArgumentException(name + " is null");
        }
        if (a.length == 0) {
            throw new IllegalArgumentException(name + " is empty (n = 0)");
        }
        for (int i = 0; i < a.length; i++) {
            if (!Double.isFinite(a[i])) {
                throw new IllegalArgumentException(name + "[" + i + "] is not finite: " + a[i]);
            }
        }
    }

    static void paired(double[] x, double[] y) {
        nonEmptyFinite("x", x);
        nonEmptyFinite("y", y);
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " vs " + y.length);
        }
    }

    static void probability(String name, double p) {
        if (!(p > 0.0 && p < 1.0)) {
            throw new IllegalArgumentException(name + " must lie strictly between 0 and 1, got " + p);
        }
    }
}
