using System;
using System.Net.Http;
using System.Threading.Tasks;

public class PaymentService
{
    private readonly HttpClient http;

    public PaymentService(HttpClient http) => this.http = http;

    public async Task<bool> ChargeAsync(string customerId, decimal amount)
    {
        var body = new StringContent($"{{\"customer\":\"{customerId}\",\"amount\":{amount}}}");
        using var response = await http.PostAsync("https://payments.example/charge", body);
        return response.IsSuccessStatusCode;
    }
}
