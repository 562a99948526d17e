package fsil.core.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HolmTest {
    @Test
    void matchesDefinitionFixtures() {
        for (JsonNode c : Fixtures.load("holm.json").get("cases")) {
            double[] expected = Fixtures.doubles(c.get("adjusted"));
            double[] actual = Holm.adjust(Fixtures.doubles(c.get("p")));
            for (int i = 0; i < expected.length; i++) {
                Fixtures.close(expected[i], actual[i], 1e-14, 1e-3, "p[" + i + "]");
            }
        }
    }

    @Test
    void textbookExample() {
        // m = 4: sorted 0.005, 0.01, 0.03, 0.04 -> 0.02, 0.03, max(0.06, 0.03) = 0.06, max(0.04, 0.06) = 0.06.
        assertArrayEquals(new double[] {0.03, 0.06, 0.06, 0.02}, Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005}),
                1e-15);
    }

    @Test
    void adjustedAreMonotoneAtLeastRawAndCapped() {
        SplittableRandom rng = new SplittableRandom(3);
        for (int trial = 0; trial < 200; trial++) {
            int m = 1 + rng.nextInt(40);
            double[] p = new double[m];
            for (int i = 0; i < m; i++) {
                p[i] = rng.nextInt(4) == 0 ? rng.nextInt(5) / 20.0 : Math.pow(rng.nextDouble(), 3); // some ties
            }
            double[] q = Holm.adjust(p);
            for (int i = 0; i < m; i++) {
                assertTrue(q[i] >= p[i] && q[i] <= 1.0, "raw " + p[i] + " adjusted " + q[i]);
                for (int j = 0; j < m; j++) {
                    if (p[i] < p[j]) {
                        assertTrue(q[i] <= q[j], "monotone");
                    } else if (p[i] == p[j]) {
                        assertEquals(q[i], q[j], 0.0, "equal raw, equal adjusted");
                    }
                }
            }
        }
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> Holm.adjust(new double[0]));
        assertThrows(IllegalArgumentException.class, () -> Holm.adjust(new double[] {0.1, Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> Holm.adjust(new double[] {0.1, 1.5}));
        assertThrows(IllegalArgumentException.class, () -> Holm.adjust(new double[] {-0.1}));
    }
}
