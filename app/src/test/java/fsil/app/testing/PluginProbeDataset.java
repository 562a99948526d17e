package fsil.app.testing;

import fsil.api.ClassTable;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Param;
import fsil.api.Params;
import fsil.data.Dataset;
import fsil.data.DatasetInfo;
import fsil.data.RawDataset;
import fsil.data.SplitSet;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A test-only dataset plugin registered solely through {@code META-INF/services/fsil.data.Dataset} in the test
 * resources: 8 well-separated Gaussian classes in 4 dimensions; {@code probe-data[shift=X]} moves every class.
 */
public final class PluginProbeDataset implements Dataset {

    static final Param<Double> SHIFT = Param.real("shift", 0.0, -1e6, 1e6, "moves every class");

    @Override
    public String id() {
        return "probe-data";
    }

    @Override
    public String description() {
        return "test-only dataset plugin";
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(SHIFT);
    }

    @Override
    public DatasetInfo info(Path cacheDir) {
        return new DatasetInfo(id(), "test-only dataset plugin", true, "generated", 8 * 30, 8, 4, 8 * 20, 8 * 10,
                List.of("base/validation/novel 4/0/4"), "none");
    }

    @Override
    public RawDataset load(Params params, Path cacheDir) {
        double shift = params.get(SHIFT);
        return new RawDataset(id() + (shift == 0 ? "" : ":shift=" + params.text("shift")), classes(),
                sample(20, 1, shift), sample(10, 2, shift),
                new SplitSet(new int[]{0, 1, 2, 3}, new int[0], new int[]{4, 5, 6, 7}, Optional.empty()), 0);
    }

    private static ClassTable classes() {
        List<String> names = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            names.add("c" + c);
        }
        return new ClassTable(names, List.of());
    }

    private static LabeledData sample(int perClass, long seed, double shift) {
        Random r = new Random(seed);
        float[] x = new float[8 * perClass * 4];
        int[] y = new int[8 * perClass];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 8;
            for (int j = 0; j < 4; j++) {
                x[i * 4 + j] = (float) (shift + 3 * ((y[i] >> (j % 3)) & 1) + r.nextGaussian() * 0.5 + (j == 3 ? y[i] : 0));
            }
        }
        return new LabeledData(FeatureMatrix.wrap(y.length, 4, x), y);
    }
}
