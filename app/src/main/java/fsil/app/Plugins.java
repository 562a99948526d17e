package fsil.app;

import fsil.api.Method;
import fsil.api.Registry;
import fsil.core.bench.Benchmark;
import fsil.data.Backbone;
import fsil.data.Dataset;
import fsil.eval.metrics.Metric;
import fsil.eval.protocol.Protocol;
import fsil.eval.run.EngineProvider;

/** The plugins of this process by kind; {@link Registry#register} adds one later (e.g. from a notebook cell). */
public record Plugins(Registry<Method> methods, Registry<Dataset> datasets, Registry<Backbone> backbones,
                      Registry<Protocol> protocols, Registry<Metric> metrics, Registry<EngineProvider> engines,
                      Registry<Benchmark> benchmarks) {
}
