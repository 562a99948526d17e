package fsil.core.math;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SoftmaxTest {
    @Test
    void logSumExpAtExtremeArguments() {
        assertEquals(1000 + Math.log(2), Softmax.logSumExp(new double[]{1000, 1000}), 1e-12);
        assertEquals(-1000 + Math.log(2), Softmax.logSumExp(new double[]{-1000, -1000}), 1e-12);
        assertEquals(Double.NEGATIVE_INFINITY, Softmax.logSumExp(new double[]{Double.NEGATIVE_INFINITY}));
        assertEquals(5.0, Softmax.logSumExp(new double[]{5, Double.NEGATIVE_INFINITY}), 0);
        assertEquals(Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3)), Softmax.logSumExp(new double[]{1, 2, 3}), 1e-14);
    }

    @Test
    void softmaxRowsStable() {
        double[] x = {1e308, 1e308, -1e308, 0, 0, 0, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        Softmax.inPlaceRows(x, 3, 3);
        assertArrayEquals(new double[]{0.5, 0.5, 0, 1 / 3.0, 1 / 3.0, 1 / 3.0, 1 / 3.0, 1 / 3.0, 1 / 3.0}, x, 1e-15);
        double[] inf = {Double.POSITIVE_INFINITY, 1};
        Softmax.inPlaceRows(inf, 1, 2);
        assertArrayEquals(new double[]{1, 0}, inf);
        assertThrows(ArithmeticException.class, () -> Softmax.inPlaceRows(new double[]{Double.NaN, 1}, 1, 2));
    }
}
