package fsil.core.math;

import fsil.core.testing.HighPrecision;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;

import static fsil.core.testing.HighPrecision.add;
import static fsil.core.testing.HighPrecision.div;
import static fsil.core.testing.HighPrecision.exp;
import static fsil.core.testing.HighPrecision.expm1;
import static fsil.core.testing.HighPrecision.log;
import static fsil.core.testing.HighPrecision.log1p;
import static fsil.core.testing.HighPrecision.mul;
import static fsil.core.testing.HighPrecision.sub;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Each stable function against 60-digit references over |x| up to 1e3 and down to 1e-300. */
class StableTest {
    /** Arguments from both extremes: overflow/underflow territory, the switch points of the formulas, tiny values. */
    private static final double[] ARGS = {-1000, -745.5, -710, -500, -100, -40, -37, -33.3, -18, -5, -1.0000001, -1,
            -0.999999, -0.5, -1e-3, -0.0020000001, -1e-5, -1e-10, -1e-300, 0, 1e-300, 1e-200, 1e-10, 1e-5, 0.00199999,
            0.002, 0.002000001, 0.1, 0.5, 0.99999, 1, 1.0000001, 2, 5, 18, 33.3, 37, 40, 100, 500, 709, 710, 745.5, 1000};

    private static final BigDecimal TWO = BigDecimal.valueOf(2);
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private static void check(String name, DoubleUnaryOperator f, Function<BigDecimal, BigDecimal> exact,
                              double tol, double[] args) {
        for (double x : args) {
            double got = f.applyAsDouble(x);
            BigDecimal ref = exact.apply(new BigDecimal(x));
            double err = HighPrecision.relativeError(got, ref);
            if (!(err <= tol)) {
                fail(name + "(" + x + ") = " + got + ", exact " + ref.round(new java.math.MathContext(20))
                        + ", relative error " + err + " > " + tol);
            }
        }
    }

    private static BigDecimal sinh(BigDecimal x) {
        return div(sub(expm1(x), expm1(x.negate())), TWO);
    }

    @Test
    void sigmoid() {
        check("sigmoid", Stable::sigmoid, x -> div(BigDecimal.ONE, add(BigDecimal.ONE, exp(x.negate()))), 2e-16 * 4, ARGS);
    }

    @Test
    void softplusAndLog1pexp() {
        Function<BigDecimal, BigDecimal> ref = x -> log1p(exp(x));
        check("softplus", Stable::softplus, ref, 1e-15, ARGS);
        check("log1pexp", Stable::log1pexp, ref, 1e-15, ARGS);
        assertEquals(1000.0, Stable.softplus(1000), 0);
        assertEquals(Math.exp(-700), Stable.softplus(-700), 1e-15 * Math.exp(-700), "must not round to 0");
    }

    @Test
    void logSigmoid() {
        check("logSigmoid", Stable::logSigmoid, x -> log1p(exp(x.negate())).negate(), 1e-15, ARGS);
        assertEquals(-1000.0, Stable.logSigmoid(-1000), 0, "not -inf");
    }

    @Test
    void log1mexp() {
        double[] pos = {1e-300, 1e-20, 1e-10, 1e-5, 0.1, 0.5, Stable.LN_2, 0.7, 1, 5, 36, 40, 100, 745, 1000};
        check("log1mexp", Stable::log1mexp, a -> log(expm1(a.negate()).negate()), 2e-15, pos);
        assertEquals(Double.NEGATIVE_INFINITY, Stable.log1mexp(0));
        assertTrue(Double.isNaN(Stable.log1mexp(-1)));
    }

    @Test
    void logCosh() {
        // log cosh x = log1p(2 sinh^2(x/2)), with sinh from expm1: no cancellation in the reference either
        check("logCosh", Stable::logCosh, x -> {
            BigDecimal s = sinh(x.multiply(HALF));
            return log1p(mul(TWO, mul(s, s)));
        }, 2e-15, ARGS);
        // x^2/2 near 0 (the naive log(cosh x) returns exactly 0 here)
        assertEquals(0.5e-20, Stable.logCosh(1e-10), 1e-35);
        assertEquals(1000 - Math.log(2), Stable.logCosh(-1000), 1e-12);
    }

    @Test
    void tanhHalfOver2c() {
        // tanh(y) = expm1(2y) / (expm1(2y) + 2), y = c/2; the exact value at c = 0 is 1/4
        check("tanhHalfOver2c", Stable::tanhHalfOver2c, c -> {
            if (c.signum() == 0) {
                return new BigDecimal("0.25");
            }
            BigDecimal e = expm1(c);
            BigDecimal tanh = div(e, add(e, TWO));
            return div(tanh, mul(TWO, c));
        }, 2e-15, ARGS);
        assertEquals(0.25, Stable.tanhHalfOver2c(0), 0);
        assertEquals(1 / 2000.0, Stable.tanhHalfOver2c(-1000), 1e-18);
    }

    @Test
    void logAddExp() {
        double[][] pairs = {{1000, 1000}, {-1000, -1000}, {1000, -1000}, {0, 1e-300}, {-745, -746}, {700, 710},
                {1, 2}, {-37, 0}, {5, 5 + 1e-12}};
        for (double[] p : pairs) {
            BigDecimal a = new BigDecimal(p[0]);
            BigDecimal b = new BigDecimal(p[1]);
            BigDecimal m = a.max(b);
            BigDecimal ref = add(m, log1p(exp(sub(a, b).abs().negate())));
            double err = HighPrecision.relativeError(Stable.logAddExp(p[0], p[1]), ref);
            assertTrue(err < 1e-15, "logAddExp" + java.util.Arrays.toString(p) + " error " + err);
        }
        assertEquals(Double.NEGATIVE_INFINITY, Stable.logAddExp(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY));
        assertEquals(3.0, Stable.logAddExp(3, Double.NEGATIVE_INFINITY), 0);
    }

    @Test
    void xLogXAndLogit() {
        assertEquals(0.0, Stable.xLogX(0), 0);
        assertEquals(1e-300 * Math.log(1e-300), Stable.xLogX(1e-300), 1e-310);
        assertTrue(Double.isNaN(Stable.xLogX(-1)));
        double[] ps = {1e-300, 1e-20, 1e-5, 0.25, 0.5, 0.75, 1 - 1e-10, 1 - 1e-16};
        check("logit", Stable::logit, p -> sub(log(p), log1p(p.negate())), 2e-15, ps);
        // round trip; for x > 0 sigmoid(x) = 1 - e^-x keeps only ~eps e^x relative information, so stay at x <= 3
        for (double x : new double[]{-700, -30, -1, 0, 1e-10, 3}) {
            assertEquals(x, Stable.logit(Stable.sigmoid(x)), 1e-14 * Math.max(1, Math.abs(x)), "logit(sigmoid(x))");
        }
    }

    @Test
    void identitiesBetweenFunctions() {
        for (double x : ARGS) {
            // log sigmoid(x) - log sigmoid(-x) = x ; softplus(x) - softplus(-x) = x
            assertEquals(x, Stable.logSigmoid(x) - Stable.logSigmoid(-x), 1e-13 * Math.max(1, Math.abs(x)));
            // sigmoid(x) + sigmoid(-x) = 1
            assertEquals(1.0, Stable.sigmoid(x) + Stable.sigmoid(-x), 3e-16);
            // log cosh is even; log(2 cosh(x/2)) = x/2 + softplus(-x)
            assertEquals(Stable.logCosh(x), Stable.logCosh(-x), 0);
            assertEquals(0.5 * x + Stable.softplus(-x), Stable.logCosh(0.5 * x) + Stable.LN_2,
                    1e-13 * Math.max(1, Math.abs(x)));
        }
    }
}
