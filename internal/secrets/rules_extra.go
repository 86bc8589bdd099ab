package secrets

// extraRules are the guard's own pattern rules, for credentials people
// paste into notes that gitleaks' default rules miss or find only next to
// a vendor's name.
var extraRules = []rule{
	// A Telegram bot token: the bot's numeric id, ':' and 35 characters
	// starting with "AA". gitleaks finds it only after a key naming
	// Telegram; the shape alone is distinctive enough. In the Bot API's
	// URLs it follows "bot" with no break
	// (https://api.telegram.org/bot<id>:<token>/sendMessage).
	{id: "telegram-bot-token", kind: KindAPIKey, shape: tokenNear, keywords: []string{":AA"},
		pattern: `(?:\b|bot)(\d{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`, entropy: 3.5},
	// An Azure storage account key or Service Bus / Event Hubs shared
	// access key, in a connection string ("…;AccountKey=…==;…").
	{id: "azure-storage-account-key", kind: KindAPIKey, shape: tokenAt, word: true, fold: true,
		keywords: []string{"AccountKey=", "SharedAccessKey="},
		pattern:  `(?i)(?:Account|SharedAccess)Key=([A-Za-z0-9+/]{40,100}={0,2})`, entropy: 4},
	// The signature of an Azure shared access signature (SAS) URL or token:
	// "…&sp=r&sig=<url-encoded base64>", which grants access on its own.
	{id: "azure-sas-signature", kind: KindAPIKey, shape: tokenAt, fold: true,
		keywords: []string{"&sig=", "?sig="},
		pattern:  `[?&]sig=([A-Za-z0-9%+/_-]{30,200}(?:%3[dD]|=){0,2})`, entropy: 3.5},
	// A Discord bot token (base64 user id, timestamp, HMAC) on a line that
	// mentions Discord.
	{id: "discord-bot-token", kind: KindAPIKey, shape: tokenNear, fold: true, keywords: []string{"discord"},
		pattern: `\b([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?:[^A-Za-z0-9_-]|$)`, entropy: 3.5},
	// A Discord webhook URL: anyone holding it can post to the channel.
	{id: "discord-webhook-url", kind: KindWebhookURL, shape: tokenAt, fold: true,
		keywords: []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"},
		pattern:  `(?i)discord(?:app)?\.com/api/webhooks/(\d{17,20}/[A-Za-z0-9_-]{60,80})`},
	// A New Relic user API key: "NRAK-" and 27 characters. gitleaks finds
	// it only after a key naming New Relic in one word ("newrelic",
	// "new_relic"); in prose it is "New Relic user key NRAK-…", and the
	// prefix alone is distinctive enough.
	{id: "new-relic-user-api-key-prefixed", kind: KindAPIKey, shape: tokenAt, word: true, keywords: []string{"NRAK-"},
		pattern: `\b(NRAK-[A-Z0-9]{27})(?:[^A-Za-z0-9_-]|$)`, entropy: 3},
}
