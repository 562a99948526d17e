package fsil.testkit;

import fsil.api.Capability;
import fsil.api.Method;
import fsil.api.Param;
import fsil.api.Params;
import fsil.api.Registry;
import fsil.data.Datasets;
import fsil.data.FeatureSet;
import fsil.eval.protocol.FewShotProtocol;
import fsil.eval.protocol.LabeledTask;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProtocolConformanceTest {
    private static final Path CACHE = Path.of("target", "test-cache");

    /** Small settings of every built-in protocol on the embedded digits (identity features). */
    static final Map<String, Map<String, String>> SMALL = Map.of(
            "fewshot", Map.of("episodes", "6"),
            "cil", Map.of("steps", "2", "runs", "2"),
            "fscil", Map.of("runs", "2"),
            "ncmf", Map.of("initial-classes", "3", "num-classes", "8", "retrain-every", "2", "runs", "2"),
            "gp-classes", Map.of("classes", "4", "runs", "2"));

    @TestFactory
    Stream<DynamicTest> everyBuiltinProtocolConforms() {
        FeatureSet digits = Datasets.load("digits", "identity", 0, CACHE);
        List<Protocol> all = Registry.discover("protocol", Protocol.class, Protocol::id).all();
        assertEquals(SMALL.keySet(), Set.copyOf(all.stream().map(Protocol::id).toList()), "every protocol is checked");
        return all.stream().flatMap(p -> ProtocolConformance.of(p).on(digits).withOptions(SMALL.get(p.id())).tests());
    }

    /** The kit must be able to fail: a protocol whose episodes depend on how many were drawn before. */
    @Test
    void kitCatchesAStatefulProtocol() {
        FeatureSet digits = Datasets.load("digits", "identity", 0, CACHE);
        Protocol stateful = new Protocol() {
            final FewShotProtocol inner = new FewShotProtocol();
            final AtomicInteger drawn = new AtomicInteger();

            public String id() {
                return "stateful";
            }

            public String description() {
                return "few-shot episodes drawn from a shared counter";
            }

            public List<Param<?>> parameters() {
                return inner.parameters();
            }

            public String incompatibility(Method m) {
                return inner.incompatibility(m);
            }

            public String settingLabel(Params o) {
                return inner.settingLabel(o);
            }

            public ProtocolPlan plan(FeatureSet data, Params o, long seed) {
                ProtocolPlan p = inner.plan(data, o, seed);
                return new ProtocolPlan() {
                    public int tasks() {
                        return p.tasks();
                    }

                    public fsil.api.Background background(long trainSeed, Optional<Path> cacheDir) {
                        return p.background(trainSeed, cacheDir);
                    }

                    public LabeledTask task(int index, Set<Capability> capabilities) {
                        return p.task(drawn.getAndIncrement(), capabilities);
                    }
                };
            }
        };
        List<String> failed = ProtocolConformance.of(stateful).on(digits).withOptions(Map.of("episodes", "6")).tests()
                .filter(t -> {
                    try {
                        t.getExecutable().execute();
                        return false;
                    } catch (Throwable e) {
                        return true;
                    }
                }).map(DynamicTest::getDisplayName).toList();
        assertEquals(List.of("stateful: tasks are a pure function of data, options, seed, index"), failed);
    }
}
