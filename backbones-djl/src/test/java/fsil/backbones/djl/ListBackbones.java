package fsil.backbones.djl;

import fsil.data.Backbone;
import fsil.data.Backbones;

/** What {@code fsil backbones} does with the plugins: run in a child JVM by {@link LazyEngineTest}. */
public final class ListBackbones {
    public static void main(String[] args) {
        for (Backbone b : Backbones.discover().all()) {
            System.out.println(b.id() + " " + b.description() + " " + b.parameters() + " " + b.describe(b.defaults()));
        }
        System.out.println(Backbones.resolve("conv4[epochs=2]").describe());
        System.out.println(Backbones.resolve("resnet12[width=0.5]").describe());
    }
}
