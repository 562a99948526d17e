package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BlockComparisonTest {
    @Test
    void matchesScipyFixtures() {
        JsonNode cases = Fixtures.load("friedman.json").get("cases");
        assertTrue(cases.size() >= 20);
        for (JsonNode c : cases) {
            String name = c.get("name").asText();
            double[][] scores = Fixtures.matrix(c.get("scores"));
            BlockComparison r = BlockComparison.of(scores, c.get("lower_is_better").asBoolean());
            assertEquals(scores.length, r.blocks());
            assertEquals(scores[0].length, r.methods());
            double[][] ranks = Fixtures.matrix(c.get("ranks"));
            for (int b = 0; b < ranks.length; b++) {
                assertArrayEquals(ranks[b], r.ranks()[b], 0.0, name + " block " + b);
            }
            assertArrayEquals(Fixtures.doubles(c.get("average_ranks")), r.averageRanks(), 1e-14, name);
            // scipy's form 12/(Nk(k+1)) sum R^2 - 3N(k+1) carries ~1e-15 N k absolute cancellation error.
            Fixtures.close(Fixtures.number(c.get("chi2")), r.friedmanChiSquare(), 1e-12, 1.0, name + " chi2");
            assertEquals(Fixtures.number(c.get("chi2_p")), r.friedmanPValue(), 1e-6, name + " chi2 p");
            Fixtures.close(Fixtures.number(c.get("chi2_p")), r.friedmanPValue(), 1e-12, 0.0, name + " chi2 p rel");
            double f = Fixtures.number(c.get("iman_davenport_f"));
            if (Double.isNaN(f)) {
                assertEquals(Double.POSITIVE_INFINITY, r.imanDavenportF(), name + " F");
            } else {
                Fixtures.close(f, r.imanDavenportF(), 1e-12, 1.0, name + " F");
            }
            assertEquals(Fixtures.number(c.get("iman_davenport_p")), r.imanDavenportPValue(), 1e-6, name + " F p");
            Fixtures.close(Fixtures.number(c.get("iman_davenport_p")), r.imanDavenportPValue(), 1e-12, 0.0,
                    name + " F p rel");
        }
    }

    @Test
    void ranksSumPerBlockAndBestIsOne() {
        SplittableRandom rng = new SplittableRandom(9);
        for (int trial = 0; trial < 100; trial++) {
            int n = 2 + rng.nextInt(30);
            int k = 2 + rng.nextInt(8);
            double[][] s = new double[n][k];
            for (double[] row : s) {
                for (int j = 0; j < k; j++) {
                    row[j] = rng.nextInt(5) / 4.0;
                }
            }
            BlockComparison hi = BlockComparison.of(s);
            BlockComparison lo = BlockComparison.of(s, true);
            double avgSum = 0.0;
            for (int b = 0; b < n; b++) {
                double sum = 0.0;
                for (int j = 0; j < k; j++) {
                    sum += hi.rank(b, j);
                    assertEquals(k + 1.0, hi.rank(b, j) + lo.rank(b, j), 1e-15, "reversed direction");
                }
                assertEquals(k * (k + 1) / 2.0, sum, 1e-12);
            }
            for (int j = 0; j < k; j++) {
                avgSum += hi.averageRank(j);
            }
            assertEquals(k * (k + 1) / 2.0, avgSum, 1e-12);
            assertEquals(hi.friedmanChiSquare(), lo.friedmanChiSquare(), 1e-12 * Math.max(1, hi.friedmanChiSquare()));
            assertTrue(hi.friedmanPValue() >= 0 && hi.friedmanPValue() <= 1);
            assertTrue(hi.imanDavenportPValue() >= 0 && hi.imanDavenportPValue() <= 1);
            assertTrue(hi.friedmanChiSquare() <= n * (k - 1) * (1 + 1e-12), "chi2 <= N(k-1)");
        }
        BlockComparison one = BlockComparison.of(new double[][] {{0.9, 0.5, 0.7}, {0.1, 0.3, 0.3}});
        assertArrayEquals(new double[] {1, 3, 2}, one.ranks()[0], 0.0);
        assertArrayEquals(new double[] {3, 1.5, 1.5}, one.ranks()[1], 0.0);
    }

    @Test
    void identicalColumnsGiveZeroChiSquare() {
        double[] column = {0.61, 0.72, 0.55, 0.9, 0.8};
        double[][] s = new double[column.length][4];
        for (int b = 0; b < s.length; b++) {
            for (int j = 0; j < 4; j++) {
                s[b][j] = column[b];
            }
        }
        BlockComparison r = BlockComparison.of(s);
        assertEquals(0.0, r.friedmanChiSquare(), 0.0);
        assertEquals(1.0, r.friedmanPValue(), 0.0);
        assertEquals(0.0, r.imanDavenportF(), 0.0);
        assertEquals(1.0, r.imanDavenportPValue(), 0.0);
        assertArrayEquals(new double[] {2.5, 2.5, 2.5, 2.5}, r.averageRanks(), 0.0);
        // A Latin square has equal rank sums without any tie: chi2 = 0 with the correction C = 1.
        BlockComparison latin = BlockComparison.of(new double[][] {{1, 2, 3}, {2, 3, 1}, {3, 1, 2}});
        assertEquals(0.0, latin.friedmanChiSquare(), 0.0);
        assertEquals(1.0, latin.friedmanPValue(), 0.0);
    }

    @Test
    void closedFormWithoutTies() {
        // Every block ranks method 0 first and method 2 last: R = (N, 2N, 3N), chi2 = N(k-1) = 2N, F infinite.
        double[][] s = {{3, 2, 1}, {30, 20, 10}, {0.3, 0.2, 0.1}, {9, 5, 4}};
        BlockComparison r = BlockComparison.of(s);
        assertEquals(8.0, r.friedmanChiSquare(), 1e-14);
        assertEquals(Math.exp(-4.0), r.friedmanPValue(), 1e-15); // chi2 with 2 df: p = exp(-x/2)
        assertEquals(Double.POSITIVE_INFINITY, r.imanDavenportF());
        assertEquals(0.0, r.imanDavenportPValue());
        // k = 2 is accepted (scipy needs 3): Friedman reduces to a sign-test-like chi2 with 1 df.
        BlockComparison two = BlockComparison.of(new double[][] {{1, 0}, {1, 0}, {0, 1}, {1, 0}});
        assertEquals(1.0, two.friedmanChiSquare(), 1e-14); // 12/(4*2*3) * 2 * 1^2 = 1
    }

    @Test
    void recordsDoNotShareArrays() {
        double[][] s = {{1, 2}, {2, 1}, {1, 2}};
        BlockComparison r = BlockComparison.of(s);
        r.ranks()[0][0] = 99;
        r.averageRanks()[0] = 99;
        assertEquals(2.0, r.rank(0, 0));
        assertEquals(5.0 / 3.0, r.averageRank(0), 1e-15);
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> BlockComparison.of(new double[0][]));
        assertThrows(IllegalArgumentException.class, () -> BlockComparison.of(new double[][] {{1, 2}}));
        assertThrows(IllegalArgumentException.class, () -> BlockComparison.of(new double[][] {{1}, {2}}));
        IllegalArgumentException ragged = assertThrows(IllegalArgumentException.class,
                () -> BlockComparison.of(new double[][] {{1, 2, 3}, {1, 2}}));
        assertTrue(ragged.getMessage().contains("ragged"));
        assertFalse(ragged.getMessage().contains("\n"));
        assertThrows(IllegalArgumentException.class,
                () -> BlockComparison.of(new double[][] {{1, 2, 3}, {1, Double.NaN, 2}}));
        assertThrows(IllegalArgumentException.class, () -> BlockComparison.of(new double[][] {{1, 2}, null}));
    }
}
