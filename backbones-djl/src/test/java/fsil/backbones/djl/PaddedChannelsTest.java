package fsil.backbones.djl;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A training step of the ResNets at 1/16 width gives finite outputs, gradients and parameters when the memory the
 * native allocator hands out holds NaN from earlier tensors. Before channel counts were rounded to multiples of 16
 * (4, 10, 20, 40 channels then) it did not, in every run tried, with AVX-512 and with oneDNN limited to AVX2:
 * libtorch's CPU convolutions read the padding of their channel blocks without writing it (module README,
 * "Convolutions and uninitialised memory").
 */
class PaddedChannelsTest {
    @TempDir
    Path cache;

    /** Fills and frees native tensors of many sizes, so that later allocations reuse memory that holds NaN. */
    private static void poison(NDManager parent) {
        try (NDManager m = parent.newSubManager()) { // closing it frees them all
            for (int size = 256; size <= 1 << 18; size *= 2) {
                for (int i = 0; i < 8; i++) {
                    m.full(new Shape(size + 16L * i), Float.NaN);
                }
            }
        }
    }

    private static int nonFinite(NDArray a) {
        int n = 0;
        for (float v : a.toFloatArray()) {
            n += Float.isFinite(v) ? 0 : 1;
        }
        return n;
    }

    private static List<String> trainingStep(Architecture.Kind kind, int channels, NDManager manager) {
        Block net = Networks.features(new Architecture(kind, 0.0625), channels, 8, 8);
        Shape shape = new Shape(64, channels, 8, 8);
        net.initialize(manager, DataType.FLOAT32, shape);
        List<String> bad = new ArrayList<>();
        try (NDManager sub = manager.newSubManager()) {
            poison(sub);
            NDArray x = sub.randomNormal(shape);
            ParameterStore ps = new ParameterStore(sub, false);
            try (GradientCollector gc = Engine.getEngine(DjlRuntime.ENGINE).newGradientCollector()) {
                NDArray z = net.forward(ps, new NDList(x), true).singletonOrThrow();
                if (nonFinite(z) > 0) {
                    bad.add("output");
                }
                gc.backward(z.square().sum());
            }
            for (Pair<String, Parameter> p : net.getParameters()) {
                NDArray a = p.getValue().getArray();
                if (nonFinite(a) > 0) {
                    bad.add(p.getKey());
                }
                if (a.hasGradient() && nonFinite(a.getGradient()) > 0) {
                    bad.add(p.getKey() + " gradient");
                }
            }
        }
        return bad;
    }

    @Test
    void channelCountsAreMultiplesOf16() {
        for (double width : new double[]{1.0 / 64, 0.0625, 0.1, 0.25, 0.3, 0.5, 1, 1.7, 8}) {
            for (int base : new int[]{64, 128, 160, 256, 320, 512, 640}) {
                int c = new Architecture(Architecture.Kind.RESNET12, width).channels(base);
                assertEquals(0, c % 16, width + " x " + base + " -> " + c);
                assertTrue(c == 16 || Math.abs(c - base * width) <= 8, "the nearest multiple, at least 16: " + width
                        + " x " + base + " -> " + c);
            }
        }
        assertEquals(64, new Architecture(Architecture.Kind.CONV4, 1).channels(64), "published widths unchanged");
    }

    @Test
    void finiteAfterNaNInFreedMemory() {
        Engine engine = DjlRuntime.engine(cache);
        for (Architecture.Kind kind : new Architecture.Kind[]{Architecture.Kind.RESNET12, Architecture.Kind.RESNET18}) {
            for (int channels : new int[]{1, 3}) {
                engine.setRandomSeed(channels);
                try (NDManager m = engine.newBaseManager()) {
                    assertEquals(List.of(), trainingStep(kind, channels, m),
                            kind + ", " + channels + " input channels: non-finite");
                }
            }
        }
    }
}
