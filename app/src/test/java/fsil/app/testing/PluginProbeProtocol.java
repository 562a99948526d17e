package fsil.app.testing;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Episode;
import fsil.api.FsilException;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.data.FeatureSet;
import fsil.eval.protocol.LabeledTask;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A test-only protocol plugin registered solely through {@code META-INF/services/fsil.eval.protocol.Protocol}:
 * "train on all training data, test on all test data" as one few-shot-style episode per unit, the units
 * differing only in the method's seed.
 */
public final class PluginProbeProtocol implements Protocol {
    static final Param<Integer> REPEATS = Param.integer("repeats", 2, 1, 100, "units (seeds)");

    @Override
    public String id() {
        return "probe-protocol";
    }

    @Override
    public String description() {
        return "test-only protocol plugin: all training data, then all test data";
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(REPEATS);
    }

    @Override
    public String incompatibility(Method method) {
        return method.capabilities().contains(Capability.INDUCTIVE_FEWSHOT) ? null : "not inductive";
    }

    @Override
    public String settingLabel(Params options) {
        return "all-vs-all x" + options.get(REPEATS);
    }

    @Override
    public ProtocolPlan plan(FeatureSet data, Params options, long orderSeed) {
        if (data.train().size() == 0) {
            throw new FsilException("probe-protocol needs training data");
        }
        int repeats = options.get(REPEATS);
        int ways = data.classes().size();
        return new ProtocolPlan() {
            public int tasks() {
                return repeats;
            }

            public Background background(long trainSeed, Optional<Path> cacheDir) {
                return Background.none(data.dimension());
            }

            public LabeledTask task(int index, Set<Capability> capabilities) {
                LabeledData test = data.test();
                int shots = (int) Arrays.stream(data.train().labels()).filter(l -> l == 0).count();
                return new LabeledTask.Episodic(new Episode(data.train(), test.features(), ways, shots, false),
                        test.labels());
            }
        };
    }
}
