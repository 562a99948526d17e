package fsil.testkit;

import fsil.api.Params;
import fsil.api.Param;
import fsil.eval.run.Engine;
import fsil.eval.run.EngineProvider;
import fsil.eval.run.LocalEngine;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EngineConformanceTest {
    @TempDir
    Path tmp;

    /** The local engine on two threads gives its own numbers on one (the kit's reference). */
    @TestFactory
    Stream<DynamicTest> theLocalEngineConforms() {
        return EngineConformance.of(new LocalEngine.Provider()).in(tmp).tests();
    }

    /** The kit must be able to fail: an engine that runs every other unit only. */
    @Test
    void kitCatchesAnEngineThatSkipsUnits() {
        EngineProvider lossy = new EngineProvider() {
            public String id() {
                return "lossy";
            }

            public String description() {
                return "runs the first half of the units";
            }

            public List<Param<?>> parameters() {
                return List.of();
            }

            public Engine create(Params params) {
                Engine local = new LocalEngine.Provider().create(params);
                return new Engine() {
                    public String name() {
                        return "lossy";
                    }

                    public void execute(Job job) throws InterruptedException {
                        local.execute(new Job(job.plan(), job.todo().subList(0, job.todo().size() / 2),
                                job.results(), job.metrics(), job.cacheDir(), job.progress()));
                    }
                };
            }
        };
        List<String> failed = EngineConformance.of(lossy).in(tmp).tests().filter(t -> {
            try {
                t.getExecutable().execute();
                return false;
            } catch (Throwable e) {
                return true;
            }
        }).map(DynamicTest::getDisplayName).toList();
        assertEquals(List.of("lossy: few-shot episodes give the local engine's numbers",
                "lossy: class-incremental runs give the local engine's numbers"), failed);
    }
}
