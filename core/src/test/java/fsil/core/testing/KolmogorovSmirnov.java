package fsil.core.testing;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * Kolmogorov-Smirnov statistics with asymptotic p-values from the Kolmogorov distribution
 * Q(t) = 2 sum_{k&gt;=1} (-1)^{k-1} exp(-2 k^2 t^2), with Stephens' (1970) small-sample correction
 * t = D (sqrt(n) + 0.12 + 0.11/sqrt(n)) where n is the (effective) sample size.
 */
public final class KolmogorovSmirnov {
    private KolmogorovSmirnov() {
    }

    /** sup_x |F_n(x) - F(x)| for the sample (sorted in place) against a continuous CDF. */
    public static double statistic(double[] sample, DoubleUnaryOperator cdf) {
        Arrays.sort(sample);
        int n = sample.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double f = cdf.applyAsDouble(sample[i]);
            d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
        }
        return d;
    }

    /** sup_x |F_a(x) - F_b(x)| for two samples (both sorted in place). */
    public static double statistic(double[] a, double[] b) {
        Arrays.sort(a);
        Arrays.sort(b);
        int i = 0;
        int j = 0;
        double d = 0;
        while (i < a.length && j < b.length) {
            double x = Math.min(a[i], b[j]);
            while (i < a.length && a[i] <= x) {
                i++;
            }
            while (j < b.length && b[j] <= x) {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / a.length - (double) j / b.length));
        }
        return d;
    }

    /** Asymptotic p-value of the one-sample statistic d with n observations. */
    public static double pValue(double d, int n) {
        double sn = Math.sqrt(n);
        return kolmogorovSurvival(d * (sn + 0.12 + 0.11 / sn));
    }

    /** Asymptotic p-value of the two-sample statistic d (effective size n m / (n + m)). */
    public static double pValue(double d, int n, int m) {
        double ne = (double) n * m / (n + m);
        double sn = Math.sqrt(ne);
        return kolmogorovSurvival(d * (sn + 0.12 + 0.11 / sn));
    }

    /** P(K &gt; t) for the Kolmogorov distribution. */
    public static double kolmogorovSurvival(double t) {
        if (t <= 0) {
            return 1.0;
        }
        if (t < 0.2) {
            return 1.0;
        }
        double s = 0;
        for (int k = 1; k <= 100; k++) {
            double term = Math.exp(-2.0 * k * k * t * t);
            s += (k % 2 == 1) ? term : -term;
            if (term < 1e-17) {
                break;
            }
        }
        return Math.min(1.0, Math.max(0.0, 2 * s));
    }
}
