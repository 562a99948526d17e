package fsil.methods.gptree;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.IntConsumer;

/**
 * Runs independent tasks 0..n-1 on the session's executor and waits for all of them. Each task writes only its own
 * outputs (and draws only from its own random stream), so results never depend on the thread count.
 */
final class Parallel {
    private Parallel() {
    }

    static void forEach(int n, Executor executor, IntConsumer body) {
        if (n == 1) {
            body.accept(0);
            return;
        }
        CompletableFuture<?>[] fs = new CompletableFuture<?>[n];
        for (int i = 0; i < n; i++) {
            final int k = i;
            fs[i] = CompletableFuture.runAsync(() -> body.accept(k), executor);
        }
        try {
            CompletableFuture.allOf(fs).join();
        } catch (CompletionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
