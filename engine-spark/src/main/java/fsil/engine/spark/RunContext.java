package fsil.engine.spark;

import com.google.inject.Guice;
import fsil.api.FsilException;
import fsil.app.FsilModule;
import fsil.app.Plugins;
import fsil.data.FeatureSet;
import fsil.eval.metrics.Metric;
import fsil.eval.run.FeatureSource;
import fsil.eval.run.Progress;
import fsil.eval.run.RunPlan;
import fsil.eval.run.RunSpec;
import fsil.eval.run.UnitRunner;
import jakarta.inject.Inject;
import org.apache.spark.broadcast.Broadcast;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * What an executor JVM needs to run units of a run, built once per JVM and run: the plan rebuilt from the driver's
 * spec with the plugins that {@link java.util.ServiceLoader} finds on the executor (the same discovery as the CLI),
 * and one {@link UnitRunner} whose learners (meta-trained ones included) serve every unit of the run that lands on
 * this executor. The executor's plan must equal the driver's (same config.json: methods, parameters, settings,
 * data fingerprints) and list as many units, or the task fails with the difference.
 */
final class RunContext {
    /** Runs whose context an executor keeps (a long-lived local JVM may run several in turn). */
    private static final int KEEP = 3;
    private static final Map<String, CompletableFuture<RunContext>> CONTEXTS = new LinkedHashMap<>();
    /** The driver's features of runs whose executors share its JVM (local masters): handed over, not copied. */
    private static final Map<String, Map<String, FeatureSet>> IN_PROCESS = new LinkedHashMap<>();

    final RunPlan plan;
    final UnitRunner units;

    private RunContext(RunPlan plan, UnitRunner units) {
        this.plan = plan;
        this.units = units;
    }

    /** How executors get their features. */
    enum Features {
        /** the driver's feature sets, encoded and sent with a Spark broadcast */
        BROADCAST,
        /** each executor loads them itself (dataset plugins, --cache): a path every node can read */
        SHARED,
        /** the driver's objects (executors in the driver's JVM: local masters) */
        IN_PROCESS
    }

    /**
     * The serializable description of a run that every task carries.
     *
     * @param runKey    identifies the run within a JVM
     * @param specJson  spec.json of the run
     * @param config    the driver's config.json (the executor's plan must produce the same)
     * @param units     units in the driver's plan
     * @param metrics   metric names, in the driver's order
     * @param cacheDir  cache directory on the executors
     * @param features  how executors get the features
     * @param broadcast dataset -> encoded feature set (BROADCAST only)
     */
    record Descriptor(String runKey, String specJson, String config, int units, List<String> metrics, String cacheDir,
                      Features features, Broadcast<Map<String, byte[]>> broadcast) implements Serializable {
    }

    /** This JVM's context of a run, built by the first task that needs it (the others wait for it). */
    static RunContext of(Descriptor d) {
        CompletableFuture<RunContext> f;
        boolean build = false;
        synchronized (CONTEXTS) {
            f = CONTEXTS.get(d.runKey());
            if (f == null) {
                f = new CompletableFuture<>();
                CONTEXTS.put(d.runKey(), f);
                while (CONTEXTS.size() > KEEP) {
                    CONTEXTS.remove(CONTEXTS.keySet().iterator().next());
                }
                build = true;
            }
        }
        if (build) {
            try {
                f.complete(build(d));
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
                synchronized (CONTEXTS) {
                    CONTEXTS.remove(d.runKey(), f); // a retried task tries again
                }
            }
        }
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FsilException("interrupted while preparing the run on this executor");
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error err) {
                throw err;
            }
            throw new FsilException(String.valueOf(t), t);
        }
    }

    /** What an executor needs of the application, as its injector assembles it. */
    record Assembled(Plugins plugins, FeatureSource features) {
        @Inject
        Assembled {
        }
    }

    private static RunContext build(Descriptor d) {
        Path cache = Path.of(d.cacheDir());
        FsilModule module = new FsilModule().withCacheDir(cache);
        switch (d.features()) {
            case BROADCAST -> {
                Map<String, byte[]> encoded = d.broadcast().value();
                Map<String, FeatureSet> decoded = new LinkedHashMap<>();
                module.withFeatures(fromDriver(d, name -> decoded.computeIfAbsent(name, n -> {
                    byte[] b = encoded.get(n);
                    return b == null ? null : FeatureCodec.decode(b);
                })));
            }
            case IN_PROCESS -> {
                Map<String, FeatureSet> driver;
                synchronized (IN_PROCESS) {
                    driver = IN_PROCESS.get(d.runKey());
                }
                if (driver == null) {
                    throw new FsilException("the driver's features of run " + d.runKey() + " are not in this JVM: "
                            + "features=in-process needs a local master");
                }
                module.withFeatures(fromDriver(d, driver::get));
            }
            case SHARED -> {
                // the dataset plugins through their backbones, as on the driver
            }
        }
        Assembled fsil = Guice.createInjector(module).getInstance(Assembled.class);
        Plugins plugins = fsil.plugins();
        RunSpec spec = RunSpec.fromTree(RunSpecs.tree(d.specJson()), "the driver's spec.json");
        // the driver's decisions (parameters chosen on validation classes, fitted temperatures) come with its config
        RunPlan plan = RunPlan.resolve(spec, plugins.methods(), plugins.protocols(),
                fsil.features(), cache, Progress.SILENT)
                .withDecisionsOf(RunSpecs.tree(d.config()));
        String config = plan.config().toString();
        if (!config.equals(d.config())) {
            throw new FsilException("this executor resolves another plan than the driver (different plugins or data "
                    + "on its class path or cache: " + RunSpecs.firstDifference(d.config(), config) + ")");
        }
        if (plan.units().size() != d.units()) {
            throw new FsilException("this executor plans " + plan.units().size() + " units, the driver "
                    + d.units());
        }
        List<Metric> metrics = new ArrayList<>();
        for (String m : d.metrics()) {
            if (!plugins.metrics().contains(m)) {
                throw new FsilException("metric '" + m + "' of the driver is not on this executor's class path "
                        + "(plugins must be found by ServiceLoader on every executor)");
            }
            metrics.add(plugins.metrics().get(m));
        }
        return new RunContext(plan, new UnitRunner(cache, metrics, Progress.SILENT));
    }

    private static FeatureSource fromDriver(Descriptor d, java.util.function.Function<String, FeatureSet> byName) {
        return (dataset, backbone, seed, cacheDir) -> {
            FeatureSet fs = byName.apply(dataset);
            if (fs == null) {
                throw new FsilException("dataset " + dataset + " was not sent by the driver of run " + d.runKey());
            }
            return fs;
        };
    }

    /** Local masters: the executors of this run, in this JVM, use the driver's feature sets. */
    static void handOver(String runKey, Map<String, FeatureSet> data) {
        synchronized (IN_PROCESS) {
            IN_PROCESS.put(runKey, data);
        }
    }

    /** Forgets a run in this JVM (the driver's end of a local run). */
    static void forget(String runKey) {
        synchronized (IN_PROCESS) {
            IN_PROCESS.remove(runKey);
        }
        synchronized (CONTEXTS) {
            CONTEXTS.remove(runKey);
        }
    }
}
