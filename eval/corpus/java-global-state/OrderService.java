import java.util.ArrayList;
import java.util.List;

public class OrderService {
    public static List<String> ORDERS = new ArrayList<>();
    public static double TAX_RATE = 0.2;

    public double place(String item, double net) {
        ORDERS.add(item);
        return net * (1 + TAX_RATE);
    }

    public int count() {
        return ORDERS.size();
    }
}
