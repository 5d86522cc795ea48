using System;
using System.Net.Http;
using System.Threading.Tasks;

public class PaymentService
{
    private readonly HttpClient http;

    public PaymentService(HttpClient http) => this.http = http;

    public async Task<bool> ChargeAsync(string customerId, decimal amount)
    {
        try
        {
            var body = new StringContent($"{{\"customer\":\"{customerId}\",\"amount\":{amount}}}");
            var response = await http.PostAsync("https://payments.example/charge", body);
            response.EnsureSuccessStatusCode();
        }
        catch (Exception)
        {
        }
        return true;
    }
}
