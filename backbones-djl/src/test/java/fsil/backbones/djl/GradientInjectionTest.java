package fsil.backbones.djl;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Blocks;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.DoubleBuffer;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The basis for methods that train the backbone with their own objective: a loss computed in Java on the network's
 * output, its gradient injected ({@link GradientInjection}) and back-propagated by PyTorch, equals central finite
 * differences of that Java loss with respect to every weight of a small float64 conv net.
 */
class GradientInjectionTest {
    static final int N = 4;
    static final int K = 3;
    static final int[] Y = {0, 2, 1, 2};

    @TempDir
    Path cache;

    /** Softmax cross-entropy of z (N x K) against Y, summed, in Java; its gradient into g when not null. */
    static double javaLoss(double[] z, double[] g) {
        double loss = 0;
        for (int i = 0; i < N; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < K; j++) {
                max = Math.max(max, z[i * K + j]);
            }
            double sum = 0;
            for (int j = 0; j < K; j++) {
                sum += Math.exp(z[i * K + j] - max);
            }
            loss += max + Math.log(sum) - z[i * K + Y[i]];
            if (g != null) {
                for (int j = 0; j < K; j++) {
                    g[i * K + j] = Math.exp(z[i * K + j] - max) / sum - (j == Y[i] ? 1 : 0);
                }
            }
        }
        return loss;
    }

    @Test
    void injectedGradientMatchesFiniteDifferences() {
        Engine engine = DjlRuntime.engine(cache);
        engine.setRandomSeed(42);
        try (NDManager m = engine.newBaseManager()) {
            SequentialBlock net = new SequentialBlock()
                    .add(Conv2d.builder().setKernelShape(new Shape(3, 3)).setFilters(2).optPadding(new Shape(1, 1))
                            .build())
                    .add(Activation.tanhBlock()).add(Blocks.batchFlattenBlock())
                    .add(Linear.builder().setUnits(K).build());
            net.initialize(m, DataType.FLOAT64, new Shape(N, 1, 4, 4));
            Random r = new Random(7);
            double[] xs = new double[N * 16];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = r.nextGaussian();
            }
            NDArray x = m.create(xs, new Shape(N, 1, 4, 4));
            ParameterStore ps = new ParameterStore(m, false);
            for (Pair<String, Parameter> p : net.getParameters()) {
                p.getValue().getArray().setRequiresGradient(true);
            }
            double[] g = new double[N * K];
            GradientInjection.zeroGradients(net);
            try (GradientCollector gc = engine.newGradientCollector()) {
                NDArray z = net.forward(ps, new NDList(x), true).singletonOrThrow();
                assertEquals(DataType.FLOAT64, z.getDataType());
                javaLoss(z.toDoubleArray(), g);
                GradientInjection.backward(gc, z, g);
            }
            double eps = 1e-6;
            double worst = 0;
            int checked = 0;
            for (Pair<String, Parameter> p : net.getParameters()) {
                NDArray w = p.getValue().getArray();
                double[] analytic = w.getGradient().toDoubleArray();
                double[] values = w.toDoubleArray();
                for (int i = 0; i < values.length; i++) {
                    double keep = values[i];
                    values[i] = keep + eps;
                    w.set(DoubleBuffer.wrap(values));
                    double up = javaLoss(net.forward(ps, new NDList(x), false).singletonOrThrow().toDoubleArray(), null);
                    values[i] = keep - eps;
                    w.set(DoubleBuffer.wrap(values));
                    double down = javaLoss(net.forward(ps, new NDList(x), false).singletonOrThrow().toDoubleArray(),
                            null);
                    values[i] = keep;
                    w.set(DoubleBuffer.wrap(values));
                    double numeric = (up - down) / (2 * eps);
                    double rel = Math.abs(numeric - analytic[i]) / Math.max(1e-6, Math.abs(numeric) + Math.abs(analytic[i]));
                    worst = Math.max(worst, rel);
                    checked++;
                }
            }
            assertEquals(2 * 9 + 2 + K * 32 + K, checked, "every weight and bias");
            assertTrue(worst < 1e-6, "worst relative error " + worst);
            System.out.printf("gradient injection: %d weights, worst relative error %.2e%n", checked, worst);
        }
    }

    @Test
    void aGradientOfTheWrongSizeIsRefused() {
        Engine engine = DjlRuntime.engine(cache);
        try (NDManager m = engine.newBaseManager(); GradientCollector gc = engine.newGradientCollector()) {
            NDArray z = m.ones(new Shape(2, 3));
            assertThrows(fsil.api.FsilException.class, () -> GradientInjection.backward(gc, z, new double[5]));
        }
    }
}
