package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import fsil.core.stats.Wilcoxon.Method;
import fsil.core.stats.Wilcoxon.Result;
import fsil.core.stats.Wilcoxon.ZeroMethod;
import org.junit.jupiter.api.Test;

import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WilcoxonTest {
    private static final double STAT_REL = 1e-12;

    @Test
    void matchesScipyFixtures() {
        JsonNode cases = Fixtures.load("wilcoxon.json").get("cases");
        assertTrue(cases.size() >= 40, "fixture cases: " + cases.size());
        for (JsonNode c : cases) {
            String name = c.get("name").asText();
            ZeroMethod zm = ZeroMethod.valueOf(c.get("zero_method").asText().toUpperCase(Locale.ROOT));
            Method m = Method.valueOf(c.get("method").asText().toUpperCase(Locale.ROOT));
            Result r = Wilcoxon.test(Fixtures.doubles(c.get("x")), Fixtures.doubles(c.get("y")), zm, m,
                    c.get("correction").asBoolean());
            Method used = Method.valueOf(c.get("method_used").asText().toUpperCase(Locale.ROOT));
            assertEquals(used, r.method(), name + " method");
            assertEquals(c.get("n_zero").asInt(), r.nZero(), name + " zeros");
            assertEquals(c.get("has_ties").asBoolean(), r.tiedRanks(), name + " ties");
            Fixtures.close(Fixtures.number(c.get("statistic")), r.statistic(), STAT_REL, 1.0, name + " statistic");
            Fixtures.close(Fixtures.number(c.get("w_plus")), r.wPlus(), STAT_REL, 1.0, name + " W+");
            double pTol = used == Method.EXACT ? 1e-10 : 1e-6;
            assertEquals(Fixtures.number(c.get("pvalue")), r.pValue(), pTol, name + " p");
            if (c.has("scipy_auto_pvalue")) {
                // Tied, no zeros, n <= 50: scipy 1.10's own 'auto' value is what forced EXACT reproduces.
                Result forced = Wilcoxon.test(Fixtures.doubles(c.get("x")), Fixtures.doubles(c.get("y")), zm,
                        Method.EXACT, c.get("correction").asBoolean());
                assertEquals(c.get("scipy_auto_pvalue").asDouble(), forced.pValue(), 1e-10, name + " scipy auto");
            }
            if (used == Method.APPROX) {
                Fixtures.close(Fixtures.number(c.get("z")), r.z(), 1e-12, 1.0, name + " z");
            } else {
                assertTrue(Double.isNaN(r.z()), name + " z is NaN for the exact method");
            }
        }
    }

    @Test
    void approximatePValuesAreMuchCloserThanRequired() {
        // The 1e-6 budget is for scipy's own normal tail; in practice both use erfc and agree far better.
        for (JsonNode c : Fixtures.load("wilcoxon.json").get("cases")) {
            ZeroMethod zm = ZeroMethod.valueOf(c.get("zero_method").asText().toUpperCase(Locale.ROOT));
            Method m = Method.valueOf(c.get("method").asText().toUpperCase(Locale.ROOT));
            Result r = Wilcoxon.test(Fixtures.doubles(c.get("x")), Fixtures.doubles(c.get("y")), zm, m,
                    c.get("correction").asBoolean());
            Fixtures.close(Fixtures.number(c.get("pvalue")), r.pValue(), 1e-12, 1e-3, c.get("name").asText());
        }
    }

    @Test
    void nullDistributionMatchesScipy() {
        for (JsonNode c : Fixtures.load("wilcoxon.json").get("null_distributions")) {
            double[] expected = Fixtures.doubles(c.get("pmf"));
            double[] pmf = Wilcoxon.nullDistribution(c.get("n").asInt());
            assertEquals(expected.length, pmf.length);
            for (int i = 0; i < pmf.length; i++) {
                assertEquals(expected[i], pmf[i], 0.0, "n=" + c.get("n") + " w=" + i);
            }
        }
    }

    @Test
    void nullDistributionSumsToOneAndIsSymmetric() {
        for (int n = 0; n <= 60; n++) {
            double[] pmf = Wilcoxon.nullDistribution(n);
            assertEquals(n * (n + 1) / 2 + 1, pmf.length);
            double sum = 0.0;
            for (int w = 0; w < pmf.length; w++) {
                sum += pmf[w];
                assertEquals(pmf[w], pmf[pmf.length - 1 - w], 0.0, "symmetry n=" + n + " w=" + w);
                assertTrue(pmf[w] > 0.0);
            }
            assertEquals(1.0, sum, 1e-14, "n=" + n);
            assertEquals(Math.pow(0.5, n), pmf[0], 0.0, "only the all-negative sign pattern gives W+ = 0");
        }
    }

    @Test
    void pValuesAreProbabilitiesAndSymmetricInXAndY() {
        SplittableRandom rng = new SplittableRandom(42);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + rng.nextInt(80);
            double[] x = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = rng.nextInt(8) / 8.0; // coarse values: plenty of ties and zeros
                y[i] = rng.nextInt(8) / 8.0 + (trial % 3 == 0 ? rng.nextDouble() : 0.0);
            }
            for (ZeroMethod zm : ZeroMethod.values()) {
                for (Method m : Method.values()) {
                    for (boolean cc : new boolean[] {false, true}) {
                        Result a;
                        try {
                            a = Wilcoxon.test(x, y, zm, m, cc);
                        } catch (IllegalArgumentException allZero) {
                            continue; // every difference zero with WILCOX/PRATT, as in scipy
                        }
                        Result b = Wilcoxon.test(y, x, zm, m, cc);
                        assertTrue(a.pValue() >= 0.0 && a.pValue() <= 1.0, "p=" + a.pValue());
                        if (a.method() == Method.EXACT && a.tiedRanks()) {
                            continue; // forced EXACT on ties is scipy 1.10's truncated value: not symmetric
                        }
                        assertEquals(a.pValue(), b.pValue(), 1e-15, "swap x and y");
                        assertEquals(a.statistic(), b.statistic(), 0.0);
                        assertEquals(a.wPlus(), b.wMinus(), 0.0);
                        assertEquals(a.method(), b.method());
                    }
                }
            }
        }
    }

    @Test
    void autoUsesExactOnlyWithoutZerosAndTies() {
        double[] d50 = new double[50];
        double[] d51 = new double[51];
        for (int i = 0; i < d51.length; i++) {
            if (i < 50) {
                d50[i] = (i % 2 == 0 ? 1 : -1) * (i + 1.5);
            }
            d51[i] = (i % 2 == 0 ? 1 : -1) * (i + 1.5);
        }
        assertEquals(Method.EXACT, Wilcoxon.testDifferences(d50, ZeroMethod.WILCOX, Method.AUTO, false).method());
        assertEquals(Method.APPROX, Wilcoxon.testDifferences(d51, ZeroMethod.WILCOX, Method.AUTO, false).method());
        d50[3] = 0.0;
        Result withZero = Wilcoxon.testDifferences(d50, ZeroMethod.WILCOX, Method.EXACT, false);
        assertEquals(Method.APPROX, withZero.method(), "a zero forces the approximation even when exact is asked");
        assertEquals(49, withZero.nRanked());
        double[] half = {1, -1, 2, 3, 4, 5, 6, 7};
        Result tied = Wilcoxon.testDifferences(half, ZeroMethod.WILCOX, Method.AUTO, false);
        assertEquals(Method.APPROX, tied.method(), "ties leave the exact branch (scipy 1.10 would stay)");
        assertTrue(tied.tiedRanks());
        // Forced EXACT reproduces scipy 1.10 on ties, whose value depends on the direction of the differences.
        double[] neg = new double[half.length];
        for (int i = 0; i < half.length; i++) {
            neg[i] = -half[i];
        }
        assertEquals(0.0234375, Wilcoxon.testDifferences(half, ZeroMethod.WILCOX, Method.EXACT, false).pValue(), 0.0);
        assertEquals(0.015625, Wilcoxon.testDifferences(neg, ZeroMethod.WILCOX, Method.EXACT, false).pValue(), 0.0);
    }

    @Test
    void smallestExactPValue() {
        Result r = Wilcoxon.testDifferences(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, ZeroMethod.WILCOX,
                Method.AUTO, false);
        assertEquals(0.0, r.statistic());
        assertEquals(55.0, r.wPlus());
        assertEquals(2.0 / 1024.0, r.pValue(), 0.0);
        assertFalse(r.tiedRanks());
    }

    @Test
    void rejectsBadInput() {
        double[] ok = {1, 2, 3};
        assertThrows(IllegalArgumentException.class, () -> Wilcoxon.test(new double[0], new double[0]));
        assertThrows(IllegalArgumentException.class, () -> Wilcoxon.test(ok, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Wilcoxon.test(ok, new double[] {1, Double.NaN, 2}));
        assertThrows(IllegalArgumentException.class, () -> Wilcoxon.test(new double[] {1, 2, Double.POSITIVE_INFINITY}, ok));
        IllegalArgumentException allZero = assertThrows(IllegalArgumentException.class, () -> Wilcoxon.test(ok, ok));
        assertFalse(allZero.getMessage().contains("\n"));
        assertThrows(IllegalArgumentException.class, () -> Wilcoxon.nullDistribution(Wilcoxon.EXACT_MAX_N + 1));
        double[] tooLong = new double[Wilcoxon.EXACT_MAX_N + 1];
        for (int i = 0; i < tooLong.length; i++) {
            tooLong[i] = i + 1.0;
        }
        assertThrows(IllegalArgumentException.class,
                () -> Wilcoxon.testDifferences(tooLong, ZeroMethod.WILCOX, Method.EXACT, false));
        assertEquals(Method.APPROX, Wilcoxon.testDifferences(tooLong, ZeroMethod.WILCOX, Method.AUTO, false).method());
        Result zsplit = Wilcoxon.test(ok, ok, ZeroMethod.ZSPLIT, Method.AUTO, false);
        assertEquals(1.0, zsplit.pValue());
        assertEquals(0.0, zsplit.z());
    }
}
