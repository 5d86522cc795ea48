import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class OrderService {
    private final List<String> orders = new ArrayList<>();
    private final double taxRate;

    public OrderService(double taxRate) {
        this.taxRate = taxRate;
    }

    public double place(String item, double net) {
        orders.add(item);
        return net * (1 + taxRate);
    }

    public List<String> orders() {
        return Collections.unmodifiableList(orders);
    }
}
