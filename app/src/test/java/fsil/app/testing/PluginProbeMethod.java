package fsil.app.testing;

import fsil.api.Background;
import fsil.api.Capability;
import fsil.api.Learner;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.testkit.ToyNearestMeanMethod;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A test-only plugin registered solely through {@code META-INF/services/fsil.api.Method} in the test resources:
 * it must show up in {@code fsil methods} and run without any change to fsil.
 */
public final class PluginProbeMethod implements Method {
    static final Param<Integer> KNOB = Param.integer("knob", 3, 0, 10, "a parameter only this plugin has");

    @Override
    public String id() {
        return "plugin-probe";
    }

    @Override
    public String description() {
        return "test-only plugin discovered through ServiceLoader";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INDUCTIVE_FEWSHOT);
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of(KNOB);
    }

    @Override
    public Learner learner(Params params, Background background) {
        ToyNearestMeanMethod toy = new ToyNearestMeanMethod();
        return toy.learner(toy.defaults(), background);
    }
}
