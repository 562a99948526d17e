package fsil.core.testing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * 60-significant-digit reference implementations of exp and log on {@link BigDecimal} (the JDK has none), used
 * as ground truth for the double-precision special functions. exp: argument halving until |x| &lt; 2^-10, Taylor
 * series, then repeated squaring. log: Newton iterations on exp started from {@link Math#log}.
 */
public final class HighPrecision {
    public static final MathContext MC = new MathContext(60, RoundingMode.HALF_EVEN);
    private static final MathContext WORK = new MathContext(80, RoundingMode.HALF_EVEN);

    private HighPrecision() {
    }

    public static BigDecimal of(double x) {
        return new BigDecimal(x);
    }

    public static BigDecimal exp(BigDecimal x) {
        int halvings = 0;
        BigDecimal r = x;
        BigDecimal limit = BigDecimal.ONE.divide(BigDecimal.valueOf(1024), WORK);
        while (r.abs().compareTo(limit) > 0) {
            r = r.divide(BigDecimal.valueOf(2), WORK);
            halvings++;
        }
        BigDecimal sum = BigDecimal.ONE;
        BigDecimal term = BigDecimal.ONE;
        for (int k = 1; k < 60; k++) {
            term = term.multiply(r, WORK).divide(BigDecimal.valueOf(k), WORK);
            sum = sum.add(term, WORK);
            if (term.abs().compareTo(BigDecimal.ONE.movePointLeft(90)) < 0) {
                break;
            }
        }
        for (int i = 0; i < halvings; i++) {
            sum = sum.multiply(sum, WORK);
        }
        return sum.round(MC);
    }

    /** Natural log of y &gt; 0. */
    public static BigDecimal log(BigDecimal y) {
        if (y.signum() <= 0) {
            throw new ArithmeticException("log of non-positive " + y);
        }
        // scale y = m * 10^e so Math.log gets a double-representable start
        int e = y.precision() - y.scale() - 1;
        BigDecimal m = y.movePointLeft(e);
        BigDecimal x = new BigDecimal(Math.log(m.doubleValue()) + e * Math.log(10));
        for (int i = 0; i < 6; i++) {
            BigDecimal ex = exp(x);
            // Halley step for exp(x) = y: x <- x + 2 (y - e^x) / (y + e^x)
            x = x.add(BigDecimal.valueOf(2).multiply(y.subtract(ex, WORK), WORK).divide(y.add(ex, WORK), WORK), WORK);
        }
        return x.round(MC);
    }

    /** e^x - 1 without cancellation: the Taylor series directly for |x| &lt; 1. */
    public static BigDecimal expm1(BigDecimal x) {
        if (x.abs().compareTo(BigDecimal.ONE) >= 0) {
            return exp(x).subtract(BigDecimal.ONE, WORK).round(MC);
        }
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal term = BigDecimal.ONE;
        for (int k = 1; k < 200; k++) {
            term = term.multiply(x, WORK).divide(BigDecimal.valueOf(k), WORK);
            sum = sum.add(term, WORK);
            if (term.signum() == 0 || term.abs().compareTo(sum.abs().movePointLeft(85)) < 0) {
                break;
            }
        }
        return sum.round(MC);
    }

    /** log(1 + y) without cancellation: the Taylor series directly for |y| &lt; 1e-3. */
    public static BigDecimal log1p(BigDecimal y) {
        if (y.abs().compareTo(new BigDecimal("1e-3")) >= 0) {
            return log(BigDecimal.ONE.add(y, WORK));
        }
        BigDecimal sum = BigDecimal.ZERO;
        BigDecimal pow = BigDecimal.ONE;
        for (int k = 1; k < 200; k++) {
            pow = pow.multiply(y, WORK);
            BigDecimal term = pow.divide(BigDecimal.valueOf(k), WORK);
            sum = (k % 2 == 1) ? sum.add(term, WORK) : sum.subtract(term, WORK);
            if (term.signum() == 0 || term.abs().compareTo(sum.abs().movePointLeft(85)) < 0) {
                break;
            }
        }
        return sum.round(MC);
    }

    public static BigDecimal sqrt(BigDecimal x) {
        return x.sqrt(WORK).round(MC);
    }

    public static BigDecimal cosh(BigDecimal x) {
        return exp(x).add(exp(x.negate()), WORK).divide(BigDecimal.valueOf(2), MC);
    }

    public static BigDecimal sinh(BigDecimal x) {
        return exp(x).subtract(exp(x.negate()), WORK).divide(BigDecimal.valueOf(2), MC);
    }

    public static BigDecimal tanh(BigDecimal x) {
        BigDecimal a = exp(x);
        BigDecimal b = exp(x.negate());
        return a.subtract(b, WORK).divide(a.add(b, WORK), MC);
    }

    public static BigDecimal add(BigDecimal a, BigDecimal b) {
        return a.add(b, WORK);
    }

    public static BigDecimal sub(BigDecimal a, BigDecimal b) {
        return a.subtract(b, WORK);
    }

    public static BigDecimal mul(BigDecimal a, BigDecimal b) {
        return a.multiply(b, WORK);
    }

    public static BigDecimal div(BigDecimal a, BigDecimal b) {
        return a.divide(b, WORK);
    }

    /**
     * Relative error |computed - exact| / max(|exact|, MIN_NORMAL): values below the smallest normal double cannot
     * be represented to full relative precision, so the error there is measured against MIN_NORMAL.
     */
    public static double relativeError(double computed, BigDecimal exact) {
        if (Double.isNaN(computed) || Double.isInfinite(computed)) {
            return Double.POSITIVE_INFINITY;
        }
        BigDecimal diff = new BigDecimal(computed).subtract(exact, WORK).abs();
        BigDecimal scale = exact.abs().max(new BigDecimal(Double.MIN_NORMAL));
        return diff.divide(scale, WORK).doubleValue();
    }
}
