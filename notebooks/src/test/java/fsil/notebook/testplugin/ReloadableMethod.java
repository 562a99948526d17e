package fsil.notebook.testplugin;

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

/** A plugin method that PluginJarTest packs into a jar of its own and loads with Fsil.methodsIn. */
public final class ReloadableMethod implements Method {
    private final Method inner = new ToyNearestMeanMethod();

    @Override
    public String id() {
        return "reloadable";
    }

    @Override
    public String description() {
        return "a test plugin loaded from its own jar";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INDUCTIVE_FEWSHOT);
    }

    @Override
    public List<Param<?>> parameters() {
        return List.of();
    }

    @Override
    public Learner learner(Params params, Background background) {
        return inner.learner(inner.defaults(), background);
    }
}
