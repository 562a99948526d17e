package org.rapaio.jupyter.kernel.channels;

/**
 * Test stand-in with the members of rapaio-jupyter-kernel 3.0.1's LoopThread that fsil.notebook.kernel.RapaioLauncher
 * uses (see KernelApiTest), and its start-up race: start() sets running only after Thread.start().
 */
public final class LoopThread extends Thread {
    private volatile boolean running = false;
    private final long sleep;
    private final Runnable loopBody;

    public LoopThread(String name, long sleep, Runnable loopBody) {
        super(name);
        this.sleep = sleep;
        this.loopBody = loopBody;
    }

    @Override
    public void run() {
        while (running) {
            loopBody.run();
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                running = false;
                break;
            }
        }
    }

    @Override
    public synchronized void start() {
        super.start();
        running = true;
    }

    public void shutdown() {
        running = false;
    }
}
