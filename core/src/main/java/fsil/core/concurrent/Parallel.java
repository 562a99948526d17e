package fsil.core.concurrent;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;

/**
 * Runs independent tasks on an executor (a session's {@code SessionContext.executor()}) and waits for all of them.
 * When every task writes only its own slots of the result arrays, the numbers do not depend on the executor's thread
 * count or scheduling. Do not call it from a task running on the same bounded executor (the waiting task would hold a
 * thread its subtasks may need).
 */
public final class Parallel {
    private Parallel() {
    }

    /**
     * Runs {@code body(0)} ... {@code body(count - 1)} on {@code executor} and waits for all of them; a single task runs
     * in the calling thread. If tasks fail, the failure of the lowest-numbered one is rethrown (unwrapped when it is a
     * RuntimeException or an Error), after every task has finished.
     */
    public static void forEach(Executor executor, int count, IntConsumer body) {
        if (count <= 0) {
            return;
        }
        if (count == 1) {
            body.accept(0);
            return;
        }
        CompletableFuture<?>[] futures = new CompletableFuture<?>[count];
        for (int i = 0; i < count; i++) {
            int task = i;
            futures[i] = CompletableFuture.runAsync(() -> body.accept(task), executor);
        }
        // wait for every task, then report the first failure in task order (deterministic, whatever finished first)
        CompletableFuture.allOf(futures).handle((ok, failure) -> null).join();
        for (CompletableFuture<?> f : futures) {
            if (f.isCompletedExceptionally()) {
                try {
                    f.join();
                } catch (CompletionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException re) {
                        throw re;
                    }
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw e;
                }
            }
        }
    }
}
