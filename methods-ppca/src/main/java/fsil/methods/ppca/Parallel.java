package fsil.methods.ppca;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;

/**
 * Runs independent tasks on the session's executor and waits for all of them. Every task writes only its own
 * slots of the result arrays, so the numbers do not depend on the executor's thread count or scheduling.
 */
final class Parallel {
    private Parallel() {
    }

    /** Runs {@code body(0)} ... {@code body(count - 1)} on {@code executor} and waits; rethrows a task's exception. */
    static void forEach(Executor executor, int count, IntConsumer body) {
        if (count == 1) {
            body.accept(0);
            return;
        }
        CompletableFuture<?>[] futures = new CompletableFuture<?>[count];
        for (int i = 0; i < count; i++) {
            int task = i;
            futures[i] = CompletableFuture.runAsync(() -> body.accept(task), executor);
        }
        try {
            CompletableFuture.allOf(futures).join();
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
