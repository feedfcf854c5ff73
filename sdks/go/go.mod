module github.com/pulumi-discord-commands/pulumi-discord-commands/sdks/go

go 1.20

require github.com/pulumi/pulumi/sdk/v3 v3.30.0
