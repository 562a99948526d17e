package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedComparisonTest {
    @Test
    void matchesNumpyAndScipyFixtures() {
        JsonNode cases = Fixtures.load("paired.json").get("cases");
        assertTrue(cases.size() >= 10);
        for (JsonNode c : cases) {
            String name = c.get("name").asText();
            PairedComparison r = PairedComparison.of(Fixtures.doubles(c.get("x")), Fixtures.doubles(c.get("y")),
                    0.95, c.get("tolerance").asDouble(), false);
            assertEquals(c.get("n").asInt(), r.n(), name);
            // The mean of differences can be near 0: relative 1e-12 with a 1e-3 floor (1e-15 absolute).
            Fixtures.close(Fixtures.number(c.get("mean")), r.mean(), 1e-12, 1e-3, name + " mean");
            Fixtures.close(Fixtures.number(c.get("std")), r.std(), 1e-12, 1e-3, name + " std");
            Fixtures.close(Fixtures.number(c.get("normal_low")), r.normalLow(), 1e-12, 1e-3, name + " normal_low");
            Fixtures.close(Fixtures.number(c.get("normal_high")), r.normalHigh(), 1e-12, 1e-3, name + " normal_high");
            // Half-widths t se, relative: an end near 0 says nothing about the quantile's accuracy.
            double mean = Fixtures.number(c.get("mean"));
            Fixtures.close(Fixtures.number(c.get("t_high")) - mean, r.tHigh() - r.mean(), 1e-12, 0.0, name + " t+");
            Fixtures.close(mean - Fixtures.number(c.get("t_low")), r.mean() - r.tLow(), 1e-12, 0.0, name + " t-");
            assertEquals(c.get("wins").asInt(), r.wins(), name + " wins");
            assertEquals(c.get("ties").asInt(), r.ties(), name + " ties");
            assertEquals(c.get("losses").asInt(), r.losses(), name + " losses");
        }
    }

    @Test
    void closedForm() {
        PairedComparison r = PairedComparison.of(new double[] {3, 5, 4, 4}, new double[] {1, 5, 5, 2});
        // d = 2, 0, -1, 2: mean 0.75, s^2 = (1.5625 + 0.5625 + 3.0625 + 1.5625)/3 = 2.25, s = 1.5, se = 0.75.
        assertEquals(0.75, r.mean(), 1e-15);
        assertEquals(1.5, r.std(), 1e-15);
        assertEquals(0.75, r.standardError(), 1e-15);
        assertEquals(0.75 - 3.182446305284263 * 0.75, r.tLow(), 1e-12); // t_{0.975, 3}
        assertEquals(0.75 + 1.959963984540054 * 0.75, r.normalHigh(), 1e-12);
        assertEquals(2, r.wins());
        assertEquals(1, r.ties());
        assertEquals(1, r.losses());
        PairedComparison lower = PairedComparison.of(new double[] {3, 5, 4, 4}, new double[] {1, 5, 5, 2}, 0.95, 0.0,
                true);
        assertEquals(1, lower.wins());
        assertEquals(2, lower.losses());
        PairedComparison loose = PairedComparison.of(new double[] {3, 5, 4, 4}, new double[] {1, 5, 5, 2}, 0.95, 1.0,
                false);
        assertEquals(2, loose.ties(), "|d| <= tolerance ties");
    }

    @Test
    void exactClosedFormQuantiles() {
        // d = (1, -1): mean 0, s = sqrt 2, se = 1; t_{0.975,1} = tan(0.475 pi).
        PairedComparison one = PairedComparison.of(new double[] {1, 0}, new double[] {0, 1});
        assertEquals(Math.tan(0.475 * Math.PI), one.tHigh(), 1e-14 * 12.7);
        // d = (1, 0, -1): se = 1/sqrt 3; with 2 df, t_p = (2p - 1) sqrt(2 / (4 p (1 - p))).
        PairedComparison two = PairedComparison.of(new double[] {1, 0, 0}, new double[] {0, 0, 1});
        double t2 = 0.95 * Math.sqrt(2.0 / (4 * 0.975 * 0.025));
        assertEquals(t2 / Math.sqrt(3.0), two.tHigh(), 1e-14 * 4.3);
    }

    @Test
    void singlePairHasNoSpread() {
        PairedComparison r = PairedComparison.of(new double[] {0.9}, new double[] {0.8});
        assertEquals(0.9 - 0.8, r.mean(), 0.0);
        assertTrue(Double.isNaN(r.std()) && Double.isNaN(r.tLow()) && Double.isNaN(r.normalHigh()));
        assertEquals(1, r.wins());
    }

    @Test
    void rejectsBadInput() {
        double[] ok = {1, 2};
        assertThrows(IllegalArgumentException.class, () -> PairedComparison.of(new double[0], new double[0]));
        assertThrows(IllegalArgumentException.class, () -> PairedComparison.of(ok, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> PairedComparison.of(ok, new double[] {1, Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> PairedComparison.of(ok, ok, 1.0, 0.0, false));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PairedComparison.of(ok, ok, 0.95, -1e-9, false));
        assertFalse(e.getMessage().contains("\n"));
    }
}
