package fsil.eval.testing;

import fsil.api.Capability;
import fsil.api.Method;
import fsil.api.Registry;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;

import java.util.EnumSet;

/**
 * Plugins for eval's tests, which see no method module: toy nearest-mean methods under the names the tests use
 * ({@code ncm} and {@code knn} inductive and incremental, {@code soft-kmeans} transductive only), the flaky
 * method, and the protocols and metrics ServiceLoader finds in eval.
 */
public final class TestPlugins {
    private TestPlugins() {
    }

    public static Registry<Method> methods() {
        EnumSet<Capability> inductive = EnumSet.of(Capability.INDUCTIVE_FEWSHOT, Capability.CLASS_INCREMENTAL,
                Capability.FEWSHOT_CLASS_INCREMENTAL);
        return new Registry<>("method", Method::id).register(new ToyNearestMeanMethod("ncm", inductive))
                .register(new ToyNearestMeanMethod("knn", inductive))
                .register(new ToyNearestMeanMethod("soft-kmeans", EnumSet.of(Capability.TRANSDUCTIVE_FEWSHOT)))
                .register(new FlakyMethod());
    }

    public static Registry<Protocol> protocols() {
        return Registry.discover("protocol", Protocol.class, Protocol::id);
    }

    public static Registry<Metric> metrics() {
        return Registry.discover("metric", Metric.class, Metric::id);
    }
}
