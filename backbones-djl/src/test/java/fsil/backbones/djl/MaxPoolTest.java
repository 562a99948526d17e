package fsil.backbones.djl;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.pooling.Pool;
import ai.djl.training.ParameterStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Networks.MaxPool2x2} in inference gives libtorch's {@code max_pool2d} values bit for bit, except that a
 * window whose maximum is a zero held as both 0 and -0 may give the other sign, and a NaN has another payload; in
 * training it is {@code max_pool2d} itself (the same gradient).
 */
class MaxPoolTest {
    @TempDir
    Path cache;

    /** Values with many ties inside a window (a few small numbers, both zeros), infinities and NaN. */
    private static float[] values(int n, Random rng) {
        float[] pool = {0f, -0f, 1f, -1f, 2f, 0.5f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
        float[] x = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = rng.nextInt(4) == 0 ? pool[rng.nextInt(pool.length)] : (float) rng.nextGaussian();
        }
        return x;
    }

    /** The bits of each value, every NaN as the canonical one and -0 as 0. */
    private static int[] bits(float[] f) {
        int[] b = new int[f.length];
        for (int i = 0; i < f.length; i++) {
            b[i] = Float.floatToIntBits(f[i] == 0 ? 0f : f[i]);
        }
        return b;
    }

    @Test
    void inferenceEqualsMaxPool2dBitForBit() {
        Engine engine = DjlRuntime.engine(cache);
        Random rng = new Random(7);
        int[][] shapes = {{2, 3, 2, 2}, {3, 16, 28, 28}, {2, 5, 7, 7}, {1, 4, 3, 8}, {2, 2, 9, 2}, {64, 64, 14, 14}};
        try (NDManager m = engine.newBaseManager()) {
            ParameterStore ps = new ParameterStore(m, false);
            for (int[] s : shapes) {
                Shape shape = new Shape(s[0], s[1], s[2], s[3]);
                NDArray x = m.create(values((int) shape.size(), rng), shape);
                NDArray expected = Pool.maxPool2d(x, new Shape(2, 2), new Shape(2, 2), new Shape(0, 0), false);
                NDArray actual = new Networks.MaxPool2x2().forward(ps, new NDList(x), false).singletonOrThrow();
                assertEquals(expected.getShape(), actual.getShape(), shape.toString());
                assertArrayEquals(bits(expected.toFloatArray()), bits(actual.toFloatArray()), shape.toString());
            }
        }
    }

    /** conv4 and resnet12 (width 1/4) in inference give the same features as with DJL's max-pool block. */
    @Test
    void networksGiveTheSameFeatures() {
        Engine engine = DjlRuntime.engine(cache);
        engine.setRandomSeed(11);
        for (Architecture.Kind kind : new Architecture.Kind[]{Architecture.Kind.CONV4, Architecture.Kind.RESNET12}) {
            double width = kind == Architecture.Kind.CONV4 ? 1 : 0.25;
            Block net = Networks.features(new Architecture(kind, width), 1, 28, 28);
            try (NDManager m = engine.newBaseManager()) {
                Shape shape = new Shape(16, 1, 28, 28);
                net.initialize(m, DataType.FLOAT32, shape);
                ParameterStore ps = new ParameterStore(m, false);
                NDArray x = m.randomNormal(shape);
                float[] actual = net.forward(ps, new NDList(x), false).singletonOrThrow().toFloatArray();
                NDList cur = new NDList(x);
                int pools = 0;
                for (Block child : net.getChildren().values()) {
                    if (child instanceof Networks.MaxPool2x2) {
                        cur = new NDList(Pool.maxPool2d(cur.singletonOrThrow(), new Shape(2, 2), new Shape(2, 2),
                                new Shape(0, 0), false));
                        pools++;
                    } else {
                        cur = child.forward(ps, cur, false);
                    }
                }
                assertEquals(4, pools, kind + ": 28 -> 14 -> 7 -> 3 -> 1");
                assertArrayEquals(bits(cur.singletonOrThrow().toFloatArray()), bits(actual), kind.toString());
            }
        }
    }

    @Test
    void trainingIsMaxPool2dWithItsGradient() {
        Engine engine = DjlRuntime.engine(cache);
        try (NDManager m = engine.newBaseManager()) {
            ParameterStore ps = new ParameterStore(m, false);
            NDArray x = m.create(new float[]{1, 1, 0, 2, 3, 3, 3, 0}, new Shape(1, 1, 2, 4));
            x.setRequiresGradient(true);
            try (var gc = engine.newGradientCollector()) {
                NDArray y = new Networks.MaxPool2x2().forward(ps, new NDList(x), true).singletonOrThrow();
                assertArrayEquals(new float[]{3, 3}, y.toFloatArray());
                gc.backward(y.sum());
            }
            // max_pool2d sends each window's gradient to one of its tied maxima, not split between them
            float[] g = x.getGradient().toFloatArray();
            assertEquals(2f, sum(g));
            for (float v : g) {
                assertEquals(0f, v * (1 - v), "each element gets all of a window's gradient or none: " + v);
            }
        }
    }

    private static float sum(float[] a) {
        float s = 0;
        for (float v : a) {
            s += v;
        }
        return s;
    }
}
