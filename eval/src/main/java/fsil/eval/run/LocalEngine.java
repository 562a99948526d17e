package fsil.eval.run;

import fsil.api.FsilException;
import fsil.api.SessionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The default engine: the units on a pool of {@code spec.threads} threads of this process, in plan order, one
 * {@link UnitRunner} for the run (each learner prepared once). With fewer units than threads, the spare threads go
 * to the sessions (e.g. one large incremental run).
 */
public final class LocalEngine implements Engine {
    public static final String NAME = "local";

    /** The {@code local} engine plugin: no parameters ({@code --threads} is the run's). */
    public static final class Provider implements EngineProvider {
        @Override
        public String id() {
            return NAME;
        }

        @Override
        public String description() {
            return "the units on a thread pool of this process (--threads)";
        }

        @Override
        public Engine create(fsil.api.Params params) {
            return new LocalEngine();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void execute(Job job) throws InterruptedException {
        List<RunPlan.Unit> todo = job.todo();
        RunPlan plan = job.plan();
        int threads = plan.spec().threads();
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemon("fsil-unit"));
        ExecutorService sessionPool = todo.size() < threads && threads > 1
                ? Executors.newFixedThreadPool(threads, daemon("fsil-session")) : null;
        UnitRunner units = new UnitRunner(job.cacheDir(), job.metrics(), job.progress());
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < Math.min(threads, todo.size()); w++) {
                workers.add(pool.submit(() -> {
                    int i;
                    while (!Thread.currentThread().isInterrupted() && (i = next.getAndIncrement()) < todo.size()) {
                        RunPlan.Unit u = todo.get(i);
                        job.results().accept(units.run(plan, u, sessionPool == null ? SessionContext.DIRECT
                                : sessionPool));
                    }
                    return null;
                }));
            }
            for (Future<?> f : workers) {
                f.get();
            }
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof Error err) {
                throw err;
            }
            if (t instanceof RuntimeException re) {
                throw re;
            }
            throw new FsilException(String.valueOf(t), t);
        } finally {
            pool.shutdownNow();
            if (sessionPool != null) {
                sessionPool.shutdownNow();
            }
        }
    }

    static ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
